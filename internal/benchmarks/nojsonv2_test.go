//go:build !go1.27 || !goexperiment.jsonv2

package benchmarks

import "errors"

// haveJSONv2 is false: encoding/json/v2 is measured only on Go 1.27 with the jsonv2
// experiment (its default), and its rows are left out.
const haveJSONv2 = false

func unmarshalV2([]byte, any) error { return errors.New("encoding/json/v2 is not in this Go") }
