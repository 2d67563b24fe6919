//go:build !race

package workspace_test

const raceEnabled = false
