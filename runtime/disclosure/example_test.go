package disclosure_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
)

// newRegistry holds the example tools of the repository: get_weather and the order service.
func newRegistry() *runtime.Registry {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	if err := reg.Add(new(orders.Service).Tools()...); err != nil {
		log.Fatal(err)
	}
	return reg
}

func ExampleDisclosure_Catalog() {
	d, err := disclosure.New(newRegistry())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Catalog())
	fmt.Println()
	for _, t := range d.Tools() {
		fmt.Println("declared:", t.Name)
	}
	// Output:
	// Tools you can use are listed below, one per line. Before using a tool for the first time, call get_tool_info with its name to learn its parameters and how to use it.
	//
	// - create_order: Places an order for a customer.
	// - get_order: Returns one order by id.
	// - get_weather: Gets the current weather for a city. Returns temperature and conditions.
	// - list_orders: Lists orders, newest first.
	//
	// declared: get_tool_info
}

func ExampleDisclosure_Invoke() {
	d, err := disclosure.New(newRegistry())
	if err != nil {
		log.Fatal(err)
	}
	res := d.Invoke(context.Background(), runtime.Call{ID: "call_1", Name: "get_tool_info", Args: []byte(`{"name":"get_weather"}`)})
	fmt.Println(res.Text)
	fmt.Println()
	for _, t := range d.Tools() {
		fmt.Println("declared:", t.Name)
	}
	// Output:
	// Tool: get_weather
	// Gets the current weather for a city. Returns temperature and conditions.
	//
	// Use it when the user asks about the weather, temperature or forecast of a named city.
	//
	// Parameters:
	// - city (string, required): City name, e.g. Beijing, Tokyo.
	// - unit (string, optional, default "celsius"): Temperature unit. Values: "celsius" (degrees Celsius), "fahrenheit" (degrees Fahrenheit).
	// - days (integer, optional, default 0): Days of forecast to include.
	//
	// Examples:
	// - Weather in Tokyo: {"city":"Tokyo"} => Current weather for Tokyo in celsius
	//
	// declared: get_tool_info
	// declared: get_weather
}

func ExampleDescribe() {
	for _, t := range new(orders.Service).Tools() {
		info, err := disclosure.Describe(t)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(info.Text())
		fmt.Println("----")
	}
	// Output:
	// Tool: create_order
	// Places an order for a customer.
	//
	// Check stock with the catalog first when the user is unsure about availability.
	//
	// Parameters:
	// - customer (object, required): Who orders.
	// - items (array of object, required): What is ordered.
	// - shipping (object, required): Where it goes.
	// - notes (string, optional, default ""): Notes for the warehouse.
	// Input schema (JSON Schema): {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"customer":{"description":"Who orders.","type":"object","properties":{"id":{"description":"Customer id from the CRM.","type":"string","minLength":1,"maxLength":64},"name":{"description":"Full name.","type":"string","minLength":1,"maxLength":200},"email":{"description":"Contact email.","type":"string","format":"email"}},"required":["id","name","email"],"additionalProperties":false},"items":{"description":"What is ordered.","type":"array","minItems":1,"maxItems":100,"items":{"description":"Item is one line of an order.","type":"object","properties":{"sku":{"description":"Stock keeping unit, three capitals, a dash and four digits.","type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"},"name":{"description":"Product name.","type":"string","minLength":1,"maxLength":200},"qty":{"description":"Quantity ordered.","type":"integer","minimum":1,"maximum":1000},"price":{"description":"Unit price in the store currency.","type":"number","exclusiveMinimum":0},"tags":{"description":"Free-form labels.","type":"array","maxItems":10,"items":{"type":"string","minLength":1,"maxLength":32}}},"required":["sku","name","qty","price"],"additionalProperties":false}},"shipping":{"description":"Where it goes.","type":"object","properties":{"lines":{"description":"Street address lines.","type":"array","minItems":1,"maxItems":3,"items":{"type":"string","minLength":1,"maxLength":100}},"city":{"description":"City or town.","type":"string","minLength":1,"maxLength":100},"postal_code":{"description":"Postal or ZIP code.","type":"string","minLength":1,"maxLength":20},"country":{"description":"Destination country. Values: \"US\" (United States), \"CA\" (Canada), \"GB\" (United Kingdom), \"DE\" (Germany), \"FR\" (France), \"JP\" (Japan), \"AU\" (Australia), \"NL\" (Netherlands), \"SE\" (Sweden), \"BR\" (Brazil).","type":"string","enum":["US","CA","GB","DE","FR","JP","AU","NL","SE","BR"]}},"required":["lines","city","postal_code","country"],"additionalProperties":false},"notes":{"description":"Notes for the warehouse.","type":"string","maxLength":2000,"default":""}},"required":["customer","items","shipping"],"additionalProperties":false}
	//
	// Related tools:
	// - get_order (follow-up)
	//
	// A call waits for the user's approval: places a paid order. Risk: medium.
	// ----
	// Tool: get_order
	// Returns one order by id.
	//
	// Parameters:
	// - id (string, required): Order id, as create_order returned it.
	//
	// Examples:
	// - An order that was never placed: {"id":"ord-404"} => no order "ord-404"; list_orders shows the existing ids
	//
	// Related tools:
	// - create_order
	// ----
	// Tool: list_orders
	// Lists orders, newest first.
	//
	// Parameters:
	// - status (integer or null, optional): Only orders in this status. Values: 0 (Pending orders are paid but not yet shipped), 1 (Shipped orders have left the warehouse), 2 (Delivered orders have reached the customer), 3 (Cancelled orders will not be shipped).
	// - since (string (date-time) or null, optional): Only orders placed at or after this time.
	// - limit (integer, optional, default 20): How many orders at most.
	// - customers (object, optional): Match on customer ids, by weight (higher first).
	// Input schema (JSON Schema): {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"status":{"description":"Only orders in this status. Values: 0 (Pending orders are paid but not yet shipped), 1 (Shipped orders have left the warehouse), 2 (Delivered orders have reached the customer), 3 (Cancelled orders will not be shipped).","type":["integer","null"],"enum":[0,1,2,3,null]},"since":{"description":"Only orders placed at or after this time.","type":["string","null"],"format":"date-time"},"limit":{"description":"How many orders at most.","type":"integer","minimum":1,"maximum":100,"default":20},"customers":{"description":"Match on customer ids, by weight (higher first).","type":"object","maxProperties":10,"additionalProperties":{"type":"integer","minimum":0}}},"additionalProperties":false}
	// ----
}
