// Package orders is an order service whose methods are tools: nested structs, slices of
// structs, maps, enums (string and iota), pointers, times and durations, with the
// create_order contract of toolgen's large benchmark.
//
//tool:tags orders
//tool:tests
package orders

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Country is a shipping destination.
type Country string

const (
	US Country = "US" // United States
	CA Country = "CA" // Canada
	GB Country = "GB" // United Kingdom
	DE Country = "DE" // Germany
	FR Country = "FR" // France
	JP Country = "JP" // Japan
	AU Country = "AU" // Australia
	NL Country = "NL" // Netherlands
	SE Country = "SE" // Sweden
	BR Country = "BR" // Brazil
)

// Status is where an order is in its life.
type Status int

const (
	// Pending orders are paid but not yet shipped.
	Pending Status = iota
	// Shipped orders have left the warehouse.
	Shipped
	// Delivered orders have reached the customer.
	Delivered
	// Cancelled orders will not be shipped.
	Cancelled
)

// Customer places orders.
type Customer struct {
	// Customer id from the CRM.
	ID string `json:"id" tool:"minLength=1,maxLength=64"`
	// Full name.
	Name string `json:"name" tool:"minLength=1,maxLength=200"`
	// Contact email.
	Email string `json:"email" tool:"format=email"`
}

// Item is one line of an order.
type Item struct {
	// Stock keeping unit, three capitals, a dash and four digits.
	SKU string `json:"sku" tool:"pattern=^[A-Z]{3}-[0-9]{4}$"`
	// Product name.
	Name string `json:"name" tool:"minLength=1,maxLength=200"`
	// Quantity ordered.
	Qty int `json:"qty" tool:"minimum=1,maximum=1000"`
	// Unit price in the store currency.
	Price float64 `json:"price" tool:"exclusiveMinimum=0"`
	// Free-form labels.
	Tags []string `json:"tags,omitempty" tool:"maxItems=10,minLength=1,maxLength=32"`
}

// Shipping is where an order goes.
type Shipping struct {
	// Street address lines.
	Lines []string `json:"lines" tool:"minItems=1,maxItems=3,minLength=1,maxLength=100"`
	// City or town.
	City string `json:"city" tool:"minLength=1,maxLength=100"`
	// Postal or ZIP code.
	PostalCode string `json:"postal_code" tool:"minLength=1,maxLength=20"`
	// Destination country.
	Country Country `json:"country"`
}

// CreateOrderArgs are the arguments of create_order.
type CreateOrderArgs struct {
	// Who orders.
	Customer Customer `json:"customer"`
	// What is ordered.
	Items []Item `json:"items" tool:"minItems=1,maxItems=100"`
	// Where it goes.
	Shipping Shipping `json:"shipping"`
	// Notes for the warehouse.
	Notes string `json:"notes,omitempty" tool:"maxLength=2000,default=''"`
}

// Order is a placed order.
type Order struct {
	// Order id.
	ID string `json:"id"`
	// Current status.
	Status Status `json:"status"`
	// When the order was placed.
	PlacedAt time.Time `json:"placed_at"`
	// Expected time to delivery.
	ETA time.Duration `json:"eta"`
	// Total price of all items.
	Total float64 `json:"total"`
	// The order as it was created.
	Request CreateOrderArgs `json:"request"`
	// Free labels set by the back office, by key.
	Labels map[string]string `json:"labels,omitempty"`
	// Tracking number, once shipped.
	Tracking *string `json:"tracking"`
}

// ListOrdersArgs filter the order list.
type ListOrdersArgs struct {
	// Only orders in this status.
	Status *Status `json:"status,omitempty"`
	// Only orders placed at or after this time.
	Since *time.Time `json:"since,omitempty"`
	// How many orders at most.
	Limit int `json:"limit,omitempty" tool:"default=20,minimum=1,maximum=100"`
	// Match on customer ids, by weight (higher first).
	Customers map[string]int `json:"customers,omitempty" tool:"maxProperties=10,minimum=0,accept=openai|gemini"`
}

// OrderList is a page of orders.
type OrderList struct {
	// The orders, newest first.
	Orders []Order `json:"orders"`
	// Whether more orders match.
	More bool `json:"more"`
}

// GetOrderArgs name one order.
type GetOrderArgs struct {
	// Order id, as create_order returned it.
	ID string `json:"id" tool:"pattern=^ord-[0-9]+$"`
}

// Service keeps orders in memory; a real one would use a database.
type Service struct {
	mu     sync.Mutex
	orders []Order
	// Now returns the current time; tests fix it.
	Now func() time.Time
}

// CreateOrder places an order for a customer.
//
// Check stock with the catalog first when the user is unsure about availability.
//
//tool:confirm places a paid order
//tool:risk medium
//tool:related get_order follow-up
//tool:maxresult 16KiB
func (s *Service) CreateOrder(ctx context.Context, args CreateOrderArgs) (Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := Order{
		ID:       fmt.Sprintf("ord-%d", len(s.orders)+1),
		Status:   Pending,
		PlacedAt: s.now(),
		ETA:      72 * time.Hour,
		Request:  args,
	}
	for _, it := range args.Items {
		o.Total += float64(it.Qty) * it.Price
	}
	s.orders = append(s.orders, o)
	return o, nil
}

// ListOrders lists orders, newest first.
//
//tool:hints readonly,idempotent
//tool:timeout 5s
func (s *Service) ListOrders(ctx context.Context, args ListOrdersArgs) (OrderList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out OrderList
	for i := len(s.orders) - 1; i >= 0; i-- {
		o := s.orders[i]
		if args.Status != nil && o.Status != *args.Status {
			continue
		}
		if args.Since != nil && o.PlacedAt.Before(*args.Since) {
			continue
		}
		if len(args.Customers) > 0 {
			if _, ok := args.Customers[o.Request.Customer.ID]; !ok {
				continue
			}
		}
		if len(out.Orders) == args.Limit {
			out.More = true
			break
		}
		out.Orders = append(out.Orders, o)
	}
	return out, nil
}

// GetOrder returns one order by id.
//
//tool:hints readonly,idempotent
//tool:related create_order
//tool:example "An order that was never placed" {"id":"ord-404"} => no order "ord-404"; list_orders shows the existing ids
func (s *Service) GetOrder(ctx context.Context, args *GetOrderArgs) (Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range s.orders {
		if o.ID == args.ID {
			return o, nil
		}
	}
	return Order{}, fmt.Errorf("no order %q; list_orders shows the existing ids", args.ID)
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
