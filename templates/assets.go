package templates

import (
	"embed"
	"io/fs"
)

//go:embed static content
var files embed.FS

// Static returns the site's stylesheet and script.
func Static() fs.FS {
	sub, _ := fs.Sub(files, "static")
	return sub
}

// Content returns the markdown documents written for people (auth.md).
func Content() fs.FS {
	sub, _ := fs.Sub(files, "content")
	return sub
}
