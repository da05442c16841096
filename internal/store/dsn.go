package store

import (
	"fmt"
	"net/url"
	"strings"
)

// sqlitePath is the file a SQLite --db value names: a path, a sqlite://
// path, or a file: URI (file:/var/x.db, file:///var/x.db, file:x.db), the
// form SQLite itself documents. A URI's query is refused rather than
// passed on, since the store sets the connection's options itself (WAL,
// synchronous, locking) and a mode or cache of the caller's would undo
// the durability it promises; another URL scheme is refused rather than
// taken for a relative file name.
func sqlitePath(dsn string) (string, error) {
	path := strings.TrimPrefix(dsn, "sqlite://")
	if rest, ok := strings.CutPrefix(dsn, "file:"); ok {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", fmt.Errorf("the database URI %q is not a valid file: URI: give the file's path", dsn)
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return "", fmt.Errorf("the database URI %q carries options (%s): give the file alone, the service sets SQLite's options itself", dsn, u.RawQuery)
		}
		if u.Host != "" && u.Host != "localhost" {
			return "", fmt.Errorf("the database URI %q names the host %s: a SQLite file must be local", dsn, u.Host)
		}
		path = u.Path
		if u.Opaque != "" {
			path = rest // file:relative/x.db
			if p, err := url.PathUnescape(path); err == nil {
				path = p
			}
		}
	} else if scheme, _, ok := strings.Cut(dsn, "://"); ok && scheme != "sqlite" {
		return "", fmt.Errorf("the database %q is neither a postgres:// URL nor a SQLite file: give a path, a file: URI or a postgres:// URL", dsn)
	}
	if path == "" {
		return "", fmt.Errorf("the database %q names no file", dsn)
	}
	return path, nil
}
