// Package servertest tests runtime/temporal against a real Temporal server, started in the
// test's process on loopback (go.temporal.io/server/temporaltest): an approval pending while
// its worker stops and another starts, and the tools' directives as the server applies them.
//
// It holds only tests, in a Go module of its own, so that the server's many dependencies
// never reach a program that imports runtime/temporal.
package servertest
