package decode_test

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// WeatherArgs is an arguments type, and the declarations after it are its decoder as toolgen
// generates it: a table, checked against the type before it is used.
type WeatherArgs struct {
	Days int
	City string
}

var (
	toolgenString_b890b945      = decode.StringRule{MinLength: 1}
	toolgenInt_9ae161f1         = decode.IntRule{Max: 7, MaxText: "7", Min: 1, MinText: "1"}
	toolgenValueString_b890b945 = decode.Value{Kind: decode.KindString, Str: &toolgenString_b890b945}
	toolgenValueInt_9ae161f1    = decode.Value{Kind: decode.KindInt, Size: uint8(unsafe.Sizeof(int(0))), Int: &toolgenInt_9ae161f1}

	toolgenStructWeatherArgs = decode.Struct{
		Fields: decode.NewFields([]string{"days", "city"}, 1),
		Members: []decode.Member{
			{Offset: unsafe.Offsetof(WeatherArgs{}.Days), Value: &toolgenValueInt_9ae161f1, Default: toolgenDefault_dfc2db89},
			{Offset: unsafe.Offsetof(WeatherArgs{}.City), Value: &toolgenValueString_b890b945},
		},
		Defaults: []int{0},
	}
)

func toolgenDefault_dfc2db89(p unsafe.Pointer) { *(*int)(p) = 3 }

func ExampleInto() {
	if err := decode.Check(&toolgenStructWeatherArgs, reflect.TypeFor[WeatherArgs]()); err != nil {
		panic(err) // runtime.Binding does this once, and refuses to decode
	}
	var args WeatherArgs
	err := decode.Into([]byte(`{"city":"Oslo"}`), unsafe.Pointer(&args), &toolgenStructWeatherArgs)
	fmt.Println(args, err)

	err = decode.Into([]byte(`{"days":9,"cty":"Oslo"}`), unsafe.Pointer(&args), &toolgenStructWeatherArgs)
	fmt.Println(err)
	// Output:
	// {3 Oslo} <nil>
	// invalid arguments:
	// - /days: must be at most 7, got 9
	// - /cty: unknown property, did you mean "city"?
	// - /city: required property is missing
}

// A table generated for an older WeatherArgs, whose Days was an int8, no longer agrees with
// the type: Check says where, and nothing is decoded with it.
func ExampleCheck() {
	stale := toolgenStructWeatherArgs
	stale.Members = append([]decode.Member(nil), stale.Members...)
	stale.Members[0].Value = &decode.Value{Kind: decode.KindInt, Size: 1}
	fmt.Println(decode.Check(&stale, reflect.TypeFor[WeatherArgs]()))
	// Output:
	// decode_test.WeatherArgs.days: no field at offset 0 takes a value of kind int
}
