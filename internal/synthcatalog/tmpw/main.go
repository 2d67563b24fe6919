package main

import (
	"os"

	"github.com/toolgen-go/toolgen/internal/synthcatalog"
)

func main() {
	if err := synthcatalog.Write(os.Args[1], os.Args[2], 100); err != nil {
		panic(err)
	}
}
