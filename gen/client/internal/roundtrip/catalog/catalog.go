// Package catalog is the round trip's server side: toolgen tools whose argument and result
// types use every shape toolgen -client types (nested and shared structs, slices, maps,
// enums, pointers, times, bytes, a recursive type), served over MCP by the round-trip tests.
// Package catalogclient is the client toolgen -client generates from their listing.
package catalog

//go:generate go run github.com/toolgen-go/toolgen/cmd/toolgen

import (
	"context"
	"errors"
	"time"
)

// Status is an item's status.
type Status string

const (
	Active   Status = "active"   // on sale
	Archived Status = "archived" // no longer sold
)

// Money is an amount in a currency.
type Money struct {
	// Amount in the currency's minor unit.
	Amount int `json:"amount"`
	// Currency code, e.g. EUR.
	Currency string `json:"currency"`
}

// Item is one item of the catalog.
type Item struct {
	// ID of the item.
	ID string `json:"id"`
	// Title shown to buyers.
	Title string `json:"title"`
	// Status of the item.
	Status Status `json:"status"`
	// Price of the item.
	Price Money `json:"price"`
	// Discount applied, when there is one.
	Discount *Money `json:"discount,omitempty"`
	// Tags of the item.
	Tags []string `json:"tags"`
	// Attributes by name.
	Attributes map[string]string `json:"attributes"`
	// Updated is when the item last changed.
	Updated time.Time `json:"updated"`
	// Thumbnail image bytes.
	Thumbnail []byte `json:"thumbnail,omitempty"`
	// Rating out of 5, when rated.
	Rating *float64 `json:"rating,omitempty"`
}

// SearchArgs are the arguments of search_items.
type SearchArgs struct {
	// Query words.
	Query string `json:"query" tool:"minLength=1"`
	// Status to keep.
	Status *Status `json:"status,omitempty"`
	// Limit of items returned.
	Limit int `json:"limit,omitempty" tool:"minimum=1,maximum=50,default=10"`
	// IncludeArchived keeps archived items too.
	IncludeArchived bool `json:"include_archived,omitempty" tool:"default=false"`
	// MaxPrice keeps items at most this price.
	MaxPrice *Money `json:"max_price,omitempty"`
}

// SearchResult holds the items found.
type SearchResult struct {
	// Items found, best first.
	Items []Item `json:"items"`
	// Total number of matches.
	Total int `json:"total"`
	// Sample price of the items found.
	Sample Money `json:"sample"`
}

// SearchItems searches the catalog.
//
//tool:name search_items
func SearchItems(ctx context.Context, args SearchArgs) (SearchResult, error) {
	rating := 4.5
	item := Item{
		ID: "i-1", Title: "Lamp for " + args.Query, Status: Active,
		Price:      Money{Amount: 1999, Currency: "EUR"},
		Discount:   &Money{Amount: 200, Currency: "EUR"},
		Tags:       []string{"home", "light"},
		Attributes: map[string]string{"color": "red"},
		Updated:    time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Thumbnail:  []byte{0x89, 'P', 'N', 'G'},
		Rating:     &rating,
	}
	res := SearchResult{Items: []Item{item}, Total: 1, Sample: item.Price}
	if args.Limit == 0 || args.Status != nil && *args.Status == Archived {
		res.Items = nil
		res.Total = 0
	}
	return res, nil
}

// Category is a node of the category tree.
type Category struct {
	// Name of the category.
	Name string `json:"name"`
	// Children of the category.
	Children []Category `json:"children"`
	// Parent of the category, unless it is a root.
	Parent *Category `json:"parent,omitempty"`
}

// TreeArgs are the arguments of category_tree.
type TreeArgs struct {
	// Depth of the tree returned.
	Depth int `json:"depth" tool:"minimum=0,maximum=3"`
}

// CategoryTree returns the category tree to a depth.
//
//tool:name category_tree
func CategoryTree(ctx context.Context, args TreeArgs) (Category, error) {
	root := Category{Name: "all", Children: []Category{}}
	if args.Depth > 0 {
		root.Children = append(root.Children, Category{Name: "home", Children: []Category{}, Parent: &Category{Name: "all", Children: []Category{}}})
	}
	return root, nil
}

// DeleteArgs are the arguments of delete_item.
type DeleteArgs struct {
	// ID of the item to delete.
	ID string `json:"id"`
}

// DeleteItem deletes an item; only items of the catalog exist.
//
//tool:name delete_item
func DeleteItem(ctx context.Context, args DeleteArgs) (string, error) {
	if args.ID != "i-1" {
		return "", errors.New("no item " + args.ID + "; search_items lists the ids")
	}
	return "deleted " + args.ID, nil
}

// PingArgs are the (no) arguments of ping.
type PingArgs struct{}

// Ping answers pong.
//
//tool:name ping
func Ping(ctx context.Context, args PingArgs) (string, error) { return "pong", nil }
