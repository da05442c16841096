package api_test

import (
	"bytes"
	"io"
)

func readAll(r io.ReadCloser) []byte {
	if r == nil {
		return nil
	}
	defer r.Close()
	b, _ := io.ReadAll(r)
	return b
}

func nopCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }
