// Code copied by a script from the generated decoders of github.com/toolgen-go/toolgen/examples/orders/orders before the decoders were made
// compact; DO NOT EDIT. It is the baseline the benchmarks compare Bind with.

package orders

import (
	src "github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"math"
	"strconv"
)

const AU = src.AU
const BR = src.BR
const CA = src.CA
const Cancelled = src.Cancelled

type CreateOrderArgs = src.CreateOrderArgs
type Customer = src.Customer

const DE = src.DE
const Delivered = src.Delivered
const FR = src.FR
const GB = src.GB

type GetOrderArgs = src.GetOrderArgs
type Item = src.Item

const JP = src.JP

type ListOrdersArgs = src.ListOrdersArgs

const NL = src.NL
const Pending = src.Pending
const SE = src.SE
const Shipped = src.Shipped

type Shipping = src.Shipping

const US = src.US

func toolgenDecodeArgsCreateOrderArgs(data []byte, v *CreateOrderArgs) error {
	d := decode.Acquire(data)
	defer decode.Release(d)
	var ps decode.Problems
	if err := toolgenDecodeCreateOrderArgs(d, nil, v, &ps); err != nil {
		return decode.SyntaxError(err)
	}
	if err := decode.Finish(d); err != nil {
		return err
	}
	return ps.Err()
}

func toolgenDecodeArgsGetOrderArgs(data []byte, v *GetOrderArgs) error {
	d := decode.Acquire(data)
	defer decode.Release(d)
	var ps decode.Problems
	if err := toolgenDecodeGetOrderArgs(d, nil, v, &ps); err != nil {
		return decode.SyntaxError(err)
	}
	if err := decode.Finish(d); err != nil {
		return err
	}
	return ps.Err()
}

func toolgenDecodeArgsListOrdersArgs(data []byte, v *ListOrdersArgs) error {
	d := decode.Acquire(data)
	defer decode.Release(d)
	var ps decode.Problems
	if err := toolgenDecodeListOrdersArgs(d, nil, v, &ps); err != nil {
		return decode.SyntaxError(err)
	}
	if err := decode.Finish(d); err != nil {
		return err
	}
	return ps.Err()
}

func toolgenDecodeCreateOrderArgs(d *decode.Decoder, p *decode.Path, v *CreateOrderArgs, ps *decode.Problems) error {
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
			case "customer":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "customer"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("customer")
				if err := toolgenDecodeCustomer(d, &q2, &v.Customer, ps); err != nil {
					return err
				}
			case "items":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "items"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q3 := p.Key("items")
				if d.Next() != decode.Array {
					if err := decode.WrongType(d, ps, &q3, "an array"); err != nil {
						return err
					}
				} else {
					it4, err := d.ArrIter()
					if err != nil {
						return err
					}
					v.Items = decode.EmptySlice(v.Items)
					i4 := 0
					for ; it4.Next(); i4++ {
						if i4 >= 100 {
							if err := d.Skip(); err != nil {
								return err
							}
							continue
						}
						q4 := q3.Index(i4)
						e4 := decode.Grow(&v.Items)
						if err := toolgenDecodeItem(d, &q4, e4, ps); err != nil {
							return err
						}
					}
					if err := it4.Err(); err != nil {
						return err
					}
					if i4 < 1 {
						ps.Count(&q3, "at least", 1, i4, "item")
					}
					if i4 > 100 {
						ps.Count(&q3, "at most", 100, i4, "item")
					}
				}
			case "shipping":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "shipping"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q5 := p.Key("shipping")
				if err := toolgenDecodeShipping(d, &q5, &v.Shipping, ps); err != nil {
					return err
				}
			case "notes":
				if seen1[0]&(1<<3) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "notes"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 3
				q6 := p.Key("notes")
				if s7, ok7, err := decode.ReadStringMax(d, ps, &q6, 2000); err != nil {
					return err
				} else if ok7 {
					v.Notes = s7
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsCreateOrderArgs); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "customer")
		}
		if seen1[0]&(1<<1) == 0 {
			ps.Missing(p, "items")
		}
		if seen1[0]&(1<<2) == 0 {
			ps.Missing(p, "shipping")
		}
		if seen1[0]&(1<<3) == 0 {
			v.Notes = ""
		}
	}
	return nil
}

func toolgenDecodeCustomer(d *decode.Decoder, p *decode.Path, v *Customer, ps *decode.Problems) error {
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
			case "id":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "id"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("id")
				if s3, ok3, err := decode.ReadStringMax(d, ps, &q2, 64); err != nil {
					return err
				} else if ok3 {
					if len(s3) == 0 {
						ps.Length(&q2, "at least", 1, 0)
					}
					v.ID = s3
				}
			case "name":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "name"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q4 := p.Key("name")
				if s5, ok5, err := decode.ReadStringMax(d, ps, &q4, 200); err != nil {
					return err
				} else if ok5 {
					if len(s5) == 0 {
						ps.Length(&q4, "at least", 1, 0)
					}
					v.Name = s5
				}
			case "email":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "email"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q6 := p.Key("email")
				if s7, ok7, err := decode.ReadString(d, ps, &q6); err != nil {
					return err
				} else if ok7 {
					if !decode.IsEmail(s7) {
						ps.Mismatch(&q6, "an email address such as \"user@example.com\"", s7)
					}
					v.Email = s7
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsCustomer); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "id")
		}
		if seen1[0]&(1<<1) == 0 {
			ps.Missing(p, "name")
		}
		if seen1[0]&(1<<2) == 0 {
			ps.Missing(p, "email")
		}
	}
	return nil
}

func toolgenDecodeGetOrderArgs(d *decode.Decoder, p *decode.Path, v *GetOrderArgs, ps *decode.Problems) error {
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
			case "id":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "id"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("id")
				if s3, ok3, err := decode.ReadString(d, ps, &q2); err != nil {
					return err
				} else if ok3 {
					if !toolgenPattern1(s3) {
						ps.Mismatch(&q2, "a string matching the pattern \"^ord-[0-9]+$\"", s3)
					}
					v.ID = s3
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsGetOrderArgs); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "id")
		}
	}
	return nil
}

func toolgenDecodeItem(d *decode.Decoder, p *decode.Path, v *Item, ps *decode.Problems) error {
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
			case "sku":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "sku"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("sku")
				if s3, ok3, err := decode.ReadString(d, ps, &q2); err != nil {
					return err
				} else if ok3 {
					if !toolgenPattern2(s3) {
						ps.Mismatch(&q2, "a string matching the pattern \"^[A-Z]{3}-[0-9]{4}$\"", s3)
					}
					v.SKU = s3
				}
			case "name":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "name"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q4 := p.Key("name")
				if s5, ok5, err := decode.ReadStringMax(d, ps, &q4, 200); err != nil {
					return err
				} else if ok5 {
					if len(s5) == 0 {
						ps.Length(&q4, "at least", 1, 0)
					}
					v.Name = s5
				}
			case "qty":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "qty"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q6 := p.Key("qty")
				if n7, ok7, err := decode.ReadInt(d, ps, &q6, math.MinInt, math.MaxInt); err != nil {
					return err
				} else if ok7 {
					if n7 < 1 {
						ps.Bound(&q6, "at least", "1", strconv.FormatInt(n7, 10))
					}
					if n7 > 1000 {
						ps.Bound(&q6, "at most", "1000", strconv.FormatInt(n7, 10))
					}
					v.Qty = int(n7)
				}
			case "price":
				if seen1[0]&(1<<3) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "price"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 3
				q8 := p.Key("price")
				if f9, raw9, ok9, err := decode.ReadFloat(d, ps, &q8, 64); err != nil {
					return err
				} else if ok9 {
					if sent10, held10 := decode.CompareFloat64(f9, raw9, 0, "0"); sent10 <= 0 {
						ps.Bound(&q8, "greater than", "0", decode.Shown(raw9))
					} else if held10 <= 0 {
						ps.Rounded(&q8, "greater than", "0", decode.Shown(raw9), f9, 64)
					}
					v.Price = float64(f9)
				}
			case "tags":
				if seen1[0]&(1<<4) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "tags"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 4
				q11 := p.Key("tags")
				if d.Next() != decode.Array {
					if err := decode.WrongType(d, ps, &q11, "an array"); err != nil {
						return err
					}
				} else {
					it12, err := d.ArrIter()
					if err != nil {
						return err
					}
					v.Tags = decode.EmptySlice(v.Tags)
					i12 := 0
					for ; it12.Next(); i12++ {
						if i12 >= 10 {
							if err := d.Skip(); err != nil {
								return err
							}
							continue
						}
						q12 := q11.Index(i12)
						e12 := decode.Grow(&v.Tags)
						if s13, ok13, err := decode.ReadStringMax(d, ps, &q12, 32); err != nil {
							return err
						} else if ok13 {
							if len(s13) == 0 {
								ps.Length(&q12, "at least", 1, 0)
							}
							(*e12) = s13
						}
					}
					if err := it12.Err(); err != nil {
						return err
					}
					if i12 > 10 {
						ps.Count(&q11, "at most", 10, i12, "item")
					}
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsItem); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "sku")
		}
		if seen1[0]&(1<<1) == 0 {
			ps.Missing(p, "name")
		}
		if seen1[0]&(1<<2) == 0 {
			ps.Missing(p, "qty")
		}
		if seen1[0]&(1<<3) == 0 {
			ps.Missing(p, "price")
		}
	}
	return nil
}

func toolgenDecodeListOrdersArgs(d *decode.Decoder, p *decode.Path, v *ListOrdersArgs, ps *decode.Problems) error {
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
			case "status":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "status"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("status")
				if d.Next() == decode.Null {
					if err := d.Null(); err != nil {
						return err
					}
					v.Status = nil
				} else {
					ptr3 := decode.Alloc(&v.Status)
					if n4, ok4, err := decode.ReadInt(d, ps, &q2, math.MinInt, math.MaxInt); err != nil {
						return err
					} else if ok4 {
						switch n4 {
						case int64(0):
							(*ptr3) = Pending
						case int64(1):
							(*ptr3) = Shipped
						case int64(2):
							(*ptr3) = Delivered
						case int64(3):
							(*ptr3) = Cancelled
						default:
							ps.NotOneOf(&q2, "0, 1, 2, 3", strconv.FormatInt(n4, 10))
						}
					}
				}
			case "since":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "since"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q5 := p.Key("since")
				if d.Next() == decode.Null {
					if err := d.Null(); err != nil {
						return err
					}
					v.Since = nil
				} else {
					ptr6 := decode.Alloc(&v.Since)
					if t7, ok7, err := decode.ReadTime(d, ps, &q5); err != nil {
						return err
					} else if ok7 {
						(*ptr6) = t7
					}
				}
			case "limit":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "limit"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q8 := p.Key("limit")
				if n9, ok9, err := decode.ReadInt(d, ps, &q8, math.MinInt, math.MaxInt); err != nil {
					return err
				} else if ok9 {
					if n9 < 1 {
						ps.Bound(&q8, "at least", "1", strconv.FormatInt(n9, 10))
					}
					if n9 > 100 {
						ps.Bound(&q8, "at most", "100", strconv.FormatInt(n9, 10))
					}
					v.Limit = int(n9)
				}
			case "customers":
				if seen1[0]&(1<<3) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "customers"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 3
				q10 := p.Key("customers")
				if d.Next() != decode.Object {
					if err := decode.WrongType(d, ps, &q10, "an object"); err != nil {
						return err
					}
				} else {
					it11, err := d.ObjIter()
					if err != nil {
						return err
					}
					v.Customers = decode.MakeMap(v.Customers)
					n11 := 0
					for it11.Next() {
						n11++
						if n11 > 10 {
							if err := d.Skip(); err != nil {
								return err
							}
							continue
						}
						k11 := string(it11.Key())
						q11 := q10.Key(k11)
						if _, dup11 := v.Customers[k11]; dup11 {
							ps.Duplicate(&q11)
							if err := d.Skip(); err != nil {
								return err
							}
							continue
						}
						e11 := decode.MapElem(v.Customers)
						if n12, ok12, err := decode.ReadInt(d, ps, &q11, math.MinInt, math.MaxInt); err != nil {
							return err
						} else if ok12 {
							if n12 < 0 {
								ps.Bound(&q11, "at least", "0", strconv.FormatInt(n12, 10))
							}
							e11 = int(n12)
						}
						v.Customers[k11] = e11
					}
					if err := it11.Err(); err != nil {
						return err
					}
					if n11 <= 10 {
						n11 = len(v.Customers)
					}
					if n11 > 10 {
						ps.Count(&q10, "at most", 10, n11, "property")
					}
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsListOrdersArgs); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<2) == 0 {
			v.Limit = int(20)
		}
	}
	return nil
}

func toolgenDecodeShipping(d *decode.Decoder, p *decode.Path, v *Shipping, ps *decode.Problems) error {
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
			case "lines":
				if seen1[0]&(1<<0) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "lines"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 0
				q2 := p.Key("lines")
				if d.Next() != decode.Array {
					if err := decode.WrongType(d, ps, &q2, "an array"); err != nil {
						return err
					}
				} else {
					it3, err := d.ArrIter()
					if err != nil {
						return err
					}
					v.Lines = decode.EmptySlice(v.Lines)
					i3 := 0
					for ; it3.Next(); i3++ {
						if i3 >= 3 {
							if err := d.Skip(); err != nil {
								return err
							}
							continue
						}
						q3 := q2.Index(i3)
						e3 := decode.Grow(&v.Lines)
						if s4, ok4, err := decode.ReadStringMax(d, ps, &q3, 100); err != nil {
							return err
						} else if ok4 {
							if len(s4) == 0 {
								ps.Length(&q3, "at least", 1, 0)
							}
							(*e3) = s4
						}
					}
					if err := it3.Err(); err != nil {
						return err
					}
					if i3 < 1 {
						ps.Count(&q2, "at least", 1, i3, "item")
					}
					if i3 > 3 {
						ps.Count(&q2, "at most", 3, i3, "item")
					}
				}
			case "city":
				if seen1[0]&(1<<1) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "city"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 1
				q5 := p.Key("city")
				if s6, ok6, err := decode.ReadStringMax(d, ps, &q5, 100); err != nil {
					return err
				} else if ok6 {
					if len(s6) == 0 {
						ps.Length(&q5, "at least", 1, 0)
					}
					v.City = s6
				}
			case "postal_code":
				if seen1[0]&(1<<2) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "postal_code"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 2
				q7 := p.Key("postal_code")
				if s8, ok8, err := decode.ReadStringMax(d, ps, &q7, 20); err != nil {
					return err
				} else if ok8 {
					if len(s8) == 0 {
						ps.Length(&q7, "at least", 1, 0)
					}
					v.PostalCode = s8
				}
			case "country":
				if seen1[0]&(1<<3) != 0 {
					if err := decode.SkipDuplicate(d, ps, p, "country"); err != nil {
						return err
					}
					continue
				}
				seen1[0] |= 1 << 3
				q9 := p.Key("country")
				if b10, ok10, err := decode.ReadStringBytes(d, ps, &q9); err != nil {
					return err
				} else if ok10 {
					switch string(b10) {
					case "US":
						v.Country = US
					case "CA":
						v.Country = CA
					case "GB":
						v.Country = GB
					case "DE":
						v.Country = DE
					case "FR":
						v.Country = FR
					case "JP":
						v.Country = JP
					case "AU":
						v.Country = AU
					case "NL":
						v.Country = NL
					case "SE":
						v.Country = SE
					case "BR":
						v.Country = BR
					default:
						ps.NotOneOf(&q9, "\"US\", \"CA\", \"GB\", \"DE\", \"FR\", \"JP\", \"AU\", \"NL\", \"SE\", \"BR\"", strconv.Quote(string(b10)))
					}
				}
			default:
				if err := decode.SkipUnknown(d, ps, p, it1.Key(), toolgenPropsShipping); err != nil {
					return err
				}
			}
		}
		if err := it1.Err(); err != nil {
			return err
		}
		if seen1[0]&(1<<0) == 0 {
			ps.Missing(p, "lines")
		}
		if seen1[0]&(1<<1) == 0 {
			ps.Missing(p, "city")
		}
		if seen1[0]&(1<<2) == 0 {
			ps.Missing(p, "postal_code")
		}
		if seen1[0]&(1<<3) == 0 {
			ps.Missing(p, "country")
		}
	}
	return nil
}

var toolgenPropsCreateOrderArgs = []string{"customer", "items", "shipping", "notes"}

var toolgenPropsCustomer = []string{"id", "name", "email"}

var toolgenPropsGetOrderArgs = []string{"id"}

var toolgenPropsItem = []string{"sku", "name", "qty", "price", "tags"}

var toolgenPropsListOrdersArgs = []string{"status", "since", "limit", "customers"}

var toolgenPropsShipping = []string{"lines", "city", "postal_code", "country"}

func toolgenPattern1(s string) bool {
	i := 0
	var r rune
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case r == 'o':
		goto s1
	default:
		return false
	}
s1:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case r == 'r':
		goto s2
	default:
		return false
	}
s2:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case r == 'd':
		goto s3
	default:
		return false
	}
s3:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case r == '-':
		goto s4
	default:
		return false
	}
s4:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case '0' <= r && r <= '9':
		goto s5
	default:
		return false
	}
s5:
	if i == len(s) {
		return true
	}
	r = rune(s[i])
	i++
	switch {
	case '0' <= r && r <= '9':
		goto s5
	default:
		return false
	}
}

func toolgenPattern2(s string) bool {
	i := 0
	var r rune
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case 'A' <= r && r <= 'Z':
		goto s1
	default:
		return false
	}
s1:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case 'A' <= r && r <= 'Z':
		goto s2
	default:
		return false
	}
s2:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case 'A' <= r && r <= 'Z':
		goto s3
	default:
		return false
	}
s3:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case r == '-':
		goto s4
	default:
		return false
	}
s4:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case '0' <= r && r <= '9':
		goto s5
	default:
		return false
	}
s5:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case '0' <= r && r <= '9':
		goto s6
	default:
		return false
	}
s6:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case '0' <= r && r <= '9':
		goto s7
	default:
		return false
	}
s7:
	if i == len(s) {
		return false
	}
	r = rune(s[i])
	i++
	switch {
	case '0' <= r && r <= '9':
		goto s8
	default:
		return false
	}
s8:
	if i == len(s) {
		return true
	}
	return false
}
