package dataset

// The matrix files of each snapshot this build trusts, pinned by sha256.
// A directory whose files match no pinned snapshot is refused: a snapshot is
// added by reviewing its diff and pinning its hashes here.
const (
	fileISO3  = "passport-index-tidy-iso3.csv"
	fileISO2  = "passport-index-tidy-iso2.csv"
	fileNames = "passport-index-tidy.csv"
)

// matrixFiles lists the three files of a snapshot in the order they are checked.
var matrixFiles = [...]string{fileISO3, fileISO2, fileNames}

type pin struct {
	version   string
	countries int
	sha256    map[string]string
}

func pinnedSnapshots() []pin {
	return []pin{
		{
			version:   "2026-02-17",
			countries: 199,
			sha256: map[string]string{
				fileISO3:  "999f237085ad29ac0bb2e9fb786f45d125ec1a2808ebb011b4dc13d2769ea166",
				fileISO2:  "d985f861c1d03be9de61a9257c3fbb7b4ef94677b5e3827012cc4d602ab45fcf",
				fileNames: "ae80101b8523db7f46360d71ec291e3194247312efa2877d2b125f0d6e621ada",
			},
		},
		{
			version:   "2025-01-12",
			countries: 199,
			sha256: map[string]string{
				fileISO3:  "8fda21d4075ea39cee1d76a50104fa4b0870cccdbc6fbdfbe98986e18d798b33",
				fileISO2:  "a93d74b9abe36d518a8b95676673294bf76e40d15f7cd41b24e19dbdc6251a15",
				fileNames: "903552cb48387385e0d953449317f3cbd0064fa9ec94e5cf559ce1b1e580f2e4",
			},
		},
		{
			version:   "2025-01-02",
			countries: 199,
			sha256: map[string]string{
				fileISO3:  "e888cc6f02e7e6606d12432fd08789eefd8752a4c1c58cfe7875e3ee4735a0ea",
				fileISO2:  "5dfe8cc108a30cc3cb829464e04fdeef8e848732036d2a284840f5f59a94c030",
				fileNames: "dc568c1b7fa432213a8547fe43ee821a9cb7dff4d4c041aa0ca076bf81bd6cf7",
			},
		},
	}
}
