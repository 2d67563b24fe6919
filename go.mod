module github.com/toolgen-go/toolgen

go 1.26.0
