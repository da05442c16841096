// Package dataset loads the data the service answers from: the secondary
// visa matrix of one snapshot (read from a directory outside the repository,
// validated strictly and pinned by sha256 in the lock file matrix.lock) and
// the curated entry-rules layer (the JSON files under curated/, embedded in
// the binary).
//
// A loaded Snapshot is immutable. The package depends on the domain and the
// country registry only; the evaluation core reads it, nothing here reaches
// back into evaluation or any adapter.
package dataset
