// Code copied by a script from the generated decoders of github.com/toolgen-go/toolgen/examples/email/email before the decoders were made
// compact; DO NOT EDIT. It is the baseline the benchmarks compare Bind with.

package email

import (
	src "github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"math"
	"strconv"
)

type SendEmailArgs = src.SendEmailArgs

func toolgenDecodeArgsSendEmailArgs(data []byte, v *SendEmailArgs) error {
	d := decode.Acquire(data)
	defer decode.Release(d)
	var ps decode.Problems
	if err := toolgenDecodeSendEmailArgs(d, nil, v, &ps); err != nil {
		return decode.SyntaxError(err)
	}
	if err := decode.Finish(d); err != nil {
		return err
	}
	return ps.Err()
}

func toolgenDecodeSendEmailArgs(d *decode.Decoder, p *decode.Path, v *SendEmailArgs, ps *decode.Problems) error {
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
			case "to":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "to"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("to")
				if s3, ok3, err := decode.ReadString(d, ps, &q2); err != nil {
					return err
				} else if ok3 {
					if !decode.IsEmail(s3) {
						ps.Mismatch(&q2, "an email address such as \"user@example.com\"", s3)
					}
					v.To = s3
				}
			case "subject":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "subject"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q4 := p.Key("subject")
				if s5, ok5, err := decode.ReadStringMax(d, ps, &q4, 200); err != nil {
					return err
				} else if ok5 {
					if len(s5) == 0 {
						ps.Length(&q4, "at least", 1, 0)
					}
					v.Subject = s5
				}
			case "body":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "body"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q6 := p.Key("body")
				if s7, ok7, err := decode.ReadStringMax(d, ps, &q6, 10000); err != nil {
					return err
				} else if ok7 {
					if len(s7) == 0 {
						ps.Length(&q6, "at least", 1, 0)
					}
					v.Body = s7
				}
			case "cc":
				if seen1[0]&(1<<3) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "cc"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 3
				q8 := p.Key("cc")
				if d.Next() != decode.Array {
					if err := decode.WrongType(d, ps, &q8, "an array"); err != nil {
						return err
					}
				} else {
					it9, err := d.ArrIter()
					if err != nil {
						return err
					}
					v.CC = decode.EmptySlice(v.CC)
					i9 := 0
					for ; it9.Next(); i9++ {
						if i9 >= 20 {
							if err := d.Skip(); err != nil {
								return err
							}
							continue
						}
						q9 := q8.Index(i9)
						e9 := decode.Grow(&v.CC)
						if s10, ok10, err := decode.ReadString(d, ps, &q9); err != nil {
							return err
						} else if ok10 {
							if !decode.IsEmail(s10) {
								ps.Mismatch(&q9, "an email address such as \"user@example.com\"", s10)
							}
							(*e9) = s10
						}
					}
					if err := it9.Err(); err != nil {
						return err
					}
					if i9 > 20 {
						ps.Count(&q8, "at most", 20, i9, "item")
					}
				}
			case "priority":
				if seen1[0]&(1<<4) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "priority"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 4
				q11 := p.Key("priority")
				if n12, ok12, err := decode.ReadInt(d, ps, &q11, math.MinInt, math.MaxInt); err != nil {
					return err
				} else if ok12 {
					if n12 < 1 {
						ps.Bound(&q11, "at least", "1", strconv.FormatInt(n12, 10))
					}
					if n12 > 5 {
						ps.Bound(&q11, "at most", "5", strconv.FormatInt(n12, 10))
					}
					v.Priority = int(n12)
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsSendEmailArgs); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "to")
		}
		if seen1[0]&(1<<1) == 0 {
			ps.Missing(p, "subject")
		}
		if seen1[0]&(1<<2) == 0 {
			ps.Missing(p, "body")
		}
		if seen1[0]&(1<<4) == 0 {
			v.Priority = int(3)
		}
	}
	return nil
}

var toolgenPropsSendEmailArgs = []string{"to", "subject", "body", "cc", "priority"}
