package changes

// FeedAtom renders the current document of the Atom feed from the whole
// event log (in any order), for the tests.
func FeedAtom(site FeedSite, events []Event) ([]byte, error) {
	return currentDocument(atomDocuments(site, events))
}

// FeedJSON renders the current document of /changes.json, for the tests.
func FeedJSON(site FeedSite, events []Event) ([]byte, error) {
	return currentDocument(jsonDocuments(site, events))
}

// currentDocument is the first of a feed's documents, the current one.
func currentDocument(docs []Document, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return docs[0].Body, nil
}
