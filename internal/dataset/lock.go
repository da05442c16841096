package dataset

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"
)

// The matrix files of a snapshot directory.
const (
	fileISO3  = "passport-index-tidy-iso3.csv"
	fileISO2  = "passport-index-tidy-iso2.csv"
	fileNames = "passport-index-tidy.csv"
)

// matrixFiles lists the three files of a snapshot in the order they are checked.
var matrixFiles = [...]string{fileISO3, fileISO2, fileNames}

// The provenance keys of a lock file line, beside the file names.
const (
	keySource  = "source"
	keyCommit  = "commit"
	keyLicense = "license"
)

// DefaultLockFile is the reviewed lock file in the repository, which the
// binary embeds and `entrycheck dataset pin` writes by default.
const DefaultLockFile = "internal/dataset/matrix.lock"

// The lock file of this build: the snapshots it trusts. Embedded so that a
// binary carries its own reviewed pins; a setting may name another file.
//
//go:embed matrix.lock
var embeddedLock []byte

// lockHeader opens every lock file written by Format.
const lockHeader = `# Matrix snapshots this build trusts, like go.sum: a snapshot directory
# loads only when its three files match the sha256 hashes of one version.
# One fact per line: VERSION KEY VALUE, separated by spaces.
#   VERSION  the snapshot date, YYYY-MM-DD, served as dataset_version
#   KEY      a matrix file name (VALUE: its sha256 in hex), or
#            source (VALUE: the repository URL it was published in),
#            commit (VALUE: that repository's commit, when known),
#            license (VALUE: its licence, an SPDX identifier)
# Every version needs its three files, source and license. Add a snapshot
# with "entrycheck dataset pin DIR --version ... --source ..." after
# reviewing "entrycheck dataset diff"; do not edit the hashes by hand.
`

// Provenance is where a pinned snapshot comes from.
type Provenance struct {
	Version string // the snapshot date
	Source  string // the repository URL
	Commit  string // the repository commit, empty when not known
	License string // SPDX identifier
}

// Name names the source: its repository's path ("imorte/passport-index-data").
func (p Provenance) Name() string {
	u, err := url.Parse(p.Source)
	if err != nil || u.Host == "" {
		return p.Source
	}
	if u.Host == "github.com" {
		return strings.Trim(u.Path, "/")
	}
	return u.Host + strings.TrimRight(u.Path, "/")
}

// Pin is one snapshot of a lock file: the sha256 of each matrix file and
// its provenance.
type Pin struct {
	Provenance
	SHA256 map[string]string // file name -> hex sha256
}

// Lock is a parsed lock file: the pinned snapshots, newest first.
type Lock struct {
	pins []Pin
}

// DefaultLock returns the lock file embedded in the binary.
func DefaultLock() (*Lock, error) { return ParseLock(DefaultLockFile, embeddedLock) }

// LockAt returns the lock file at path, or the one embedded in the binary
// when path is empty (the --data-lock setting's default).
func LockAt(path string) (*Lock, error) {
	if path == "" {
		return DefaultLock()
	}
	return ReadLock(path)
}

// ReadLock reads and parses a lock file.
func ReadLock(path string) (*Lock, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading lock file: %w", err)
	}
	return ParseLock(path, b)
}

var (
	hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)
	hexCommit = regexp.MustCompile(`^[0-9a-f]{7,64}$`)
	spdxID    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.+-]*$`)
)

// ParseLock parses a lock file strictly: every line is a comment, blank, or
// VERSION KEY VALUE with a known key and a well-formed value, given once per
// version; name is the file, for errors, which are FileErrors.
func ParseLock(name string, data []byte) (*Lock, error) {
	byVersion := map[string]*Pin{}
	firstLine := map[string]int{}
	var order []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 3 {
			return nil, &FileError{File: name, Line: line, Problem: fmt.Sprintf("%d fields, want VERSION KEY VALUE", len(fields))}
		}
		version, key, value := fields[0], fields[1], fields[2]
		if err := CheckVersion(version); err != nil {
			return nil, &FileError{File: name, Line: line, Problem: err.Error()}
		}
		if err := checkLockValue(key, value); err != nil {
			return nil, &FileError{File: name, Line: line, Problem: err.Error()}
		}
		p, ok := byVersion[version]
		if !ok {
			p = &Pin{Provenance: Provenance{Version: version}, SHA256: map[string]string{}}
			byVersion[version], firstLine[version] = p, line
			order = append(order, version)
		}
		if !p.set(key, value) {
			return nil, &FileError{File: name, Line: line, Problem: fmt.Sprintf("%s %s is given twice", version, key)}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &FileError{File: name, Problem: err.Error()}
	}
	l := &Lock{}
	for _, v := range order {
		p := byVersion[v]
		if missing := p.missing(); missing != "" {
			return nil, &FileError{File: name, Line: firstLine[v], Problem: fmt.Sprintf("snapshot %s has no %s line", v, missing)}
		}
		if other, ok := l.byHashes(p.SHA256); ok {
			return nil, &FileError{File: name, Line: firstLine[v], Problem: fmt.Sprintf("snapshot %s pins the same files as %s", v, other.Version)}
		}
		l.pins = append(l.pins, *p)
	}
	l.sort()
	return l, nil
}

// CheckVersion accepts a snapshot version: a real date written YYYY-MM-DD.
func CheckVersion(v string) error {
	if t, err := time.Parse(time.DateOnly, v); err != nil || t.Format(time.DateOnly) != v {
		return fmt.Errorf("version %q is not a date written YYYY-MM-DD", v)
	}
	return nil
}

// Check accepts a snapshot's provenance as a lock file would: a date, an
// https source, a hex commit if any, and an SPDX licence.
func (p Provenance) Check() error {
	if err := CheckVersion(p.Version); err != nil {
		return err
	}
	for _, kv := range [][2]string{{keySource, p.Source}, {keyCommit, p.Commit}, {keyLicense, p.License}} {
		if kv[0] == keyCommit && kv[1] == "" {
			continue
		}
		if err := checkLockValue(kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// checkLockValue checks the value of one key.
func checkLockValue(key, value string) error {
	switch {
	case slices.Contains(matrixFiles[:], key):
		if !hexSHA256.MatchString(value) {
			return fmt.Errorf("sha256 %q of %s is not 64 lower-case hex digits", value, key)
		}
	case key == keySource:
		if u, err := url.Parse(value); err != nil || u.Scheme != "https" || u.Host == "" {
			return fmt.Errorf("source %q is not an https:// URL", value)
		}
	case key == keyCommit:
		if !hexCommit.MatchString(value) {
			return fmt.Errorf("commit %q is not a hex commit id", value)
		}
	case key == keyLicense:
		if !spdxID.MatchString(value) {
			return fmt.Errorf("license %q is not an SPDX identifier such as MIT", value)
		}
	default:
		return fmt.Errorf("unknown key %q (want a matrix file name, %s, %s or %s)", key, keySource, keyCommit, keyLicense)
	}
	return nil
}

// set records one fact; false when it was already given.
func (p *Pin) set(key, value string) bool {
	var dst *string
	switch key {
	case keySource:
		dst = &p.Source
	case keyCommit:
		dst = &p.Commit
	case keyLicense:
		dst = &p.License
	default:
		if _, dup := p.SHA256[key]; dup {
			return false
		}
		p.SHA256[key] = value
		return true
	}
	if *dst != "" {
		return false
	}
	*dst = value
	return true
}

// missing names the first required fact the pin lacks, "" when complete.
func (p *Pin) missing() string {
	for _, f := range matrixFiles {
		if p.SHA256[f] == "" {
			return f
		}
	}
	switch {
	case p.Source == "":
		return keySource
	case p.License == "":
		return keyLicense
	}
	return ""
}

// Versions lists the pinned versions, newest first.
func (l *Lock) Versions() []string {
	out := make([]string, len(l.pins))
	for i, p := range l.pins {
		out[i] = p.Version
	}
	return out
}

func (l *Lock) sort() {
	slices.SortFunc(l.pins, func(a, b Pin) int { return strings.Compare(b.Version, a.Version) })
}

func (l *Lock) byVersion(v string) (Pin, bool) {
	for _, p := range l.pins {
		if p.Version == v {
			return p, true
		}
	}
	return Pin{}, false
}

func (l *Lock) byHashes(sums map[string]string) (Pin, bool) {
	for _, p := range l.pins {
		if p.SHA256[fileISO3] == sums[fileISO3] {
			return p, true
		}
	}
	return Pin{}, false
}

// Add pins a snapshot. It refuses a version already pinned with other
// hashes or provenance, and files already pinned under another version;
// added is false when the same pin was there already.
func (l *Lock) Add(p Pin) (added bool, err error) {
	if err := p.Provenance.Check(); err != nil {
		return false, err
	}
	for _, f := range matrixFiles {
		if err := checkLockValue(f, p.SHA256[f]); err != nil {
			return false, err
		}
	}
	if old, ok := l.byVersion(p.Version); ok {
		for _, f := range matrixFiles {
			if old.SHA256[f] != p.SHA256[f] {
				return false, fmt.Errorf("version %s is already pinned with other hashes (%s %s, this directory has %s)", p.Version, f, old.SHA256[f], p.SHA256[f])
			}
		}
		if old.Provenance != p.Provenance {
			return false, fmt.Errorf("version %s is already pinned with other provenance (%s %s, license %s)", p.Version, old.Source, old.Commit, old.License)
		}
		return false, nil
	}
	if old, ok := l.byHashes(p.SHA256); ok {
		return false, fmt.Errorf("these files are already pinned as version %s", old.Version)
	}
	l.pins = append(l.pins, p)
	l.sort()
	return true, nil
}

// Lines returns a pin's lines in the lock file format.
func (p Pin) Lines() []string {
	var out []string
	for _, f := range matrixFiles {
		out = append(out, p.Version+" "+f+" "+p.SHA256[f])
	}
	out = append(out, p.Version+" "+keySource+" "+p.Source)
	if p.Commit != "" {
		out = append(out, p.Version+" "+keyCommit+" "+p.Commit)
	}
	return append(out, p.Version+" "+keyLicense+" "+p.License)
}

// Format writes the lock file: the header, then each snapshot, newest
// first, separated by blank lines.
func (l *Lock) Format() []byte {
	var b bytes.Buffer
	b.WriteString(lockHeader)
	for _, p := range l.pins {
		b.WriteString("\n")
		for _, line := range p.Lines() {
			b.WriteString(line + "\n")
		}
	}
	return b.Bytes()
}

// match finds the pin of a directory's files by their sums, in the order
// of matrixFiles.
func (l *Lock) match(sums [len(matrixFiles)]string) (Pin, error) {
	for _, p := range l.pins {
		if p.SHA256[fileISO3] != sums[0] {
			continue
		}
		for i, name := range matrixFiles {
			if p.SHA256[name] != sums[i] {
				return Pin{}, &FileError{File: name, Problem: fmt.Sprintf("sha256 is %s but snapshot %s pins %s: the file was changed", sums[i], p.Version, p.SHA256[name])}
			}
		}
		return p, nil
	}
	known := strings.Join(l.Versions(), ", ")
	if known == "" {
		known = "none"
	}
	return Pin{}, &FileError{File: fileISO3, Problem: fmt.Sprintf("sha256 %s matches no pinned snapshot (pinned: %s): the file was changed, or this snapshot has not been reviewed and pinned", sums[0], known)}
}
