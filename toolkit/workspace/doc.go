// Package workspace gives a model the file, search and shell tools of a coding or ops agent,
// confined to a sandbox: read_file, write_file, edit_file, list_dir, glob, grep and shell,
// plus read_result for results too long to show at once.
package workspace
