// Package baseline holds, in one package per example, the decoders toolgen generated for the
// benchmark tools before the decoders were made compact (shared runtime helpers with static
// rules instead of inline checks). The benchmarks measure today's Bind against them in the
// same run, so a change of the decoders shows as a ratio, whatever the machine's noise.
package baseline
