// Code copied by a script from the generated decoders of github.com/toolgen-go/toolgen/examples/weather/weather before the decoders were made
// compact; DO NOT EDIT. It is the baseline the benchmarks compare Bind with.

package weather

import (
	src "github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"math"
	"strconv"
)

const Celsius = src.Celsius
const Fahrenheit = src.Fahrenheit

type WeatherArgs = src.WeatherArgs

func toolgenDecodeArgsWeatherArgs(data []byte, v *WeatherArgs) error {
	d := decode.Acquire(data)
	defer decode.Release(d)
	var ps decode.Problems
	if err := toolgenDecodeWeatherArgs(d, nil, v, &ps); err != nil {
		return decode.SyntaxError(err)
	}
	if err := decode.Finish(d); err != nil {
		return err
	}
	return ps.Err()
}

func toolgenDecodeWeatherArgs(d *decode.Decoder, p *decode.Path, v *WeatherArgs, ps *decode.Problems) error {
	if d.Next() != decode.Object {
		if err := decode.WrongType(d, ps, p, "an object"); err != nil {
			return err
		}
	} else {
		it1, err := d.ObjIter()
		if err != nil {
			return err
		}
		var seen1 [1]uint64
		for it1.Next() {
			switch string(it1.Key()) {
			case "city":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "city"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("city")
				if s3, ok3, err := decode.ReadString(d, ps, &q2); err != nil {
					return err
				} else if ok3 {
					if len(s3) == 0 {
						ps.Length(&q2, "at least", 1, 0)
					}
					v.City = s3
				}
			case "unit":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "unit"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q4 := p.Key("unit")
				if b5, ok5, err := decode.ReadStringBytes(d, ps, &q4); err != nil {
					return err
				} else if ok5 {
					switch string(b5) {
					case "celsius":
						v.Unit = Celsius
					case "fahrenheit":
						v.Unit = Fahrenheit
					default:
						ps.NotOneOf(&q4, "\"celsius\", \"fahrenheit\"", strconv.Quote(string(b5)))
					}
				}
			case "days":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "days"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q6 := p.Key("days")
				if n7, ok7, err := decode.ReadInt(d, ps, &q6, math.MinInt, math.MaxInt); err != nil {
					return err
				} else if ok7 {
					if n7 < 0 {
						ps.Bound(&q6, "at least", "0", strconv.FormatInt(n7, 10))
					}
					if n7 > 7 {
						ps.Bound(&q6, "at most", "7", strconv.FormatInt(n7, 10))
					}
					v.Days = int(n7)
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsWeatherArgs); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "city")
		}
		if seen1[0]&(1<<1) == 0 {
			v.Unit = Celsius
		}
		if seen1[0]&(1<<2) == 0 {
			v.Days = int(0)
		}
	}
	return nil
}

var toolgenPropsWeatherArgs = []string{"city", "unit", "days"}
