package templates

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"path"
)

//go:embed static
var files embed.FS

// Static returns the site's stylesheet, script and favicon.
func Static() fs.FS {
	sub, _ := fs.Sub(files, "static")
	return sub
}

// AssetPath is the content-hashed path a static file is published at
// ("site.css" -> "/assets/site.a9ecdc570a.css"), so that the generator
// and the server name the same file.
func AssetPath(name string) (string, []byte, error) {
	b, err := fs.ReadFile(Static(), name)
	if err != nil {
		return "", nil, err
	}
	return HashedPath(name, b), b, nil
}

// HashedPath is the path a file named name with content b is published
// at, its name carrying a digest of b: it can be cached for good, since
// other content gets another name.
func HashedPath(name string, b []byte) string {
	sum := sha256.Sum256(b)
	ext := path.Ext(name)
	return "/assets/" + name[:len(name)-len(ext)] + "." + hex.EncodeToString(sum[:5]) + ext
}
