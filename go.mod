module github.com/entrycheck/entrycheck

go 1.26.8
