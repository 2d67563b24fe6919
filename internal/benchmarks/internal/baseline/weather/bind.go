package weather

import "github.com/toolgen-go/toolgen/internal/benchmarks/internal/baseline"

// Bind is the baseline of the tool's Bind: see baseline.Binder.
var Bind = baseline.Binder(toolgenDecodeArgsWeatherArgs)
