package toolsearch_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// The synthetic 300-tool catalog the search is measured on: 30 domains of a business back
// office times 10 operations, each tool with a description, tags and parameters as a
// generated tool has them. Queries are written the way a model describes a task: other
// words for the operation, sometimes another word for the thing.

type domain struct {
	singular, plural, about string
	synonym                 string // another word a user may use
	params                  []string
	tag                     string
}

var domains = []domain{
	{"invoice", "invoices", "billing documents sent to customers", "bill", []string{"customer_id", "amount", "due_date", "currency"}, "billing"},
	{"customer", "customers", "people and companies who buy from us", "client", []string{"email", "company", "country"}, "crm"},
	{"order", "orders", "purchases customers placed in the shop", "purchase", []string{"customer_id", "items", "total"}, "shop"},
	{"shipment", "shipments", "parcels on their way to customers", "delivery", []string{"carrier", "tracking_number", "address"}, "logistics"},
	{"product", "products", "items the shop sells", "article", []string{"sku", "price", "stock"}, "shop"},
	{"payment", "payments", "money received from customers", "transaction", []string{"amount", "method", "invoice_id"}, "billing"},
	{"refund", "refunds", "money paid back to customers", "reimbursement", []string{"payment_id", "amount", "reason"}, "billing"},
	{"subscription", "subscriptions", "recurring plans customers pay for", "plan", []string{"customer_id", "plan", "renewal_date"}, "billing"},
	{"ticket", "tickets", "support requests from customers", "case", []string{"subject", "priority", "assignee"}, "support"},
	{"user", "users", "accounts that sign in to the product", "account", []string{"email", "role"}, "identity"},
	{"team", "teams", "groups of users who work together", "group", []string{"name", "members"}, "identity"},
	{"project", "projects", "pieces of work with a goal and a deadline", "initiative", []string{"name", "owner", "deadline"}, "work"},
	{"task", "tasks", "to-do items inside a project", "todo", []string{"project_id", "title", "due_date"}, "work"},
	{"calendar_event", "calendar events", "meetings and appointments", "meeting", []string{"start", "end", "attendees"}, "calendar"},
	{"email", "emails", "messages in the shared mailbox", "mail", []string{"to", "subject", "body"}, "mail"},
	{"document", "documents", "texts in the company wiki", "page", []string{"title", "folder"}, "docs"},
	{"file", "files", "uploads in cloud storage", "attachment", []string{"path", "size"}, "storage"},
	{"repository", "repositories", "git repositories of source code", "repo", []string{"name", "visibility"}, "code"},
	{"pull_request", "pull requests", "proposed code changes awaiting review", "merge request", []string{"repository", "branch", "reviewer"}, "code"},
	{"deployment", "deployments", "releases of a service to an environment", "release", []string{"service", "environment", "version"}, "ops"},
	{"alert", "alerts", "monitoring notifications about incidents", "alarm", []string{"severity", "service"}, "ops"},
	{"metric", "metrics", "time series measured from services", "measurement", []string{"name", "window"}, "ops"},
	{"log_entry", "log entries", "lines services write to their logs", "log line", []string{"service", "level", "since"}, "ops"},
	{"database", "databases", "managed SQL databases", "db", []string{"engine", "size"}, "infra"},
	{"dns_record", "DNS records", "name server entries of our domains", "domain entry", []string{"zone", "type", "value"}, "infra"},
	{"certificate", "certificates", "TLS certificates of our domains", "cert", []string{"domain", "expires"}, "infra"},
	{"virtual_machine", "virtual machines", "cloud servers", "server", []string{"size", "region", "image"}, "infra"},
	{"container", "containers", "running container workloads", "pod", []string{"image", "replicas"}, "infra"},
	{"secret", "secrets", "credentials kept in the vault", "credential", []string{"name", "value"}, "security"},
	{"expense", "expenses", "costs employees claim back", "receipt", []string{"employee", "amount", "category"}, "finance"},
}

type operation struct {
	verb        string // in the tool name
	plural      bool   // the name uses the plural
	description string // %[1]s singular, %[2]s plural
	extra       []string
	queries     []string // %[1]s a word for the thing (singular), %[2]s plural
}

var operations = []operation{
	{"list", true, "Lists %[2]s, newest first, filtered by status and date range.", []string{"status", "from", "to"},
		[]string{"show all %[2]s", "which %[2]s do we have"}},
	{"get", false, "Gets one %[1]s by its id, with all its fields.", []string{"id"},
		[]string{"look up %[1]s 4711", "details of a single %[1]s"}},
	{"create", false, "Creates a new %[1]s from the given fields.", nil,
		[]string{"make a new %[1]s", "add a %[1]s"}},
	{"update", false, "Updates fields of an existing %[1]s.", []string{"id"},
		[]string{"change an existing %[1]s", "edit the %[1]s fields"}},
	{"delete", false, "Deletes a %[1]s permanently.", []string{"id"},
		[]string{"remove a %[1]s for good", "delete the %[1]s"}},
	{"search", true, "Searches %[2]s by free text.", []string{"query"},
		[]string{"find %[2]s mentioning acme by text", "full text search in %[2]s"}},
	{"export", true, "Exports %[2]s as CSV or JSON for download.", []string{"format"},
		[]string{"download all %[2]s as csv", "export %[2]s to a spreadsheet"}},
	{"archive", false, "Archives a %[1]s so it no longer shows in lists.", []string{"id"},
		[]string{"archive an old %[1]s", "hide an old %[1]s from lists"}},
	{"share", false, "Shares a %[1]s with another user or team by email.", []string{"id", "with"},
		[]string{"share a %[1]s with a colleague", "give someone access to a %[1]s"}},
	{"summarize", true, "Summarizes %[2]s: counts and totals over a period.", []string{"period"},
		[]string{"how many %[2]s this month, totals", "summary stats of %[2]s last quarter"}},
}

// toolName is the tool of domain d and operation o.
func toolName(d domain, o operation) string {
	noun := d.singular
	if o.plural {
		noun = strings.ReplaceAll(d.plural, " ", "_")
		noun = strings.ToLower(noun)
	}
	return o.verb + "_" + noun
}

// syntheticCatalog returns the 300 tools.
func syntheticCatalog() []runtime.Tool {
	var tools []runtime.Tool
	for i, d := range domains {
		for _, o := range operations {
			props := map[string]any{}
			for _, p := range append(append([]string{}, d.params...), o.extra...) {
				props[p] = map[string]any{"type": "string"}
			}
			schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
			tools = append(tools, runtime.Tool{
				Name:        toolName(d, o),
				Description: description(i, d, o),
				Tags:        []string{d.tag},
				InputSchema: schema,
				Deferred:    true,
			})
		}
	}
	return tools
}

// labelledQuery is a query and the tool a careful person would pick for it.
type labelledQuery struct{ query, want string }

// syntheticQueries returns 120 labelled queries: 4 per domain, spread over the operations,
// half of them naming the thing by another word.
func syntheticQueries() []labelledQuery {
	var out []labelledQuery
	for i, d := range domains {
		for j := range 4 {
			o := operations[(i*3+j*7)%len(operations)]
			word, words := strings.ReplaceAll(d.singular, "_", " "), d.plural
			if j%2 == 1 {
				word, words = d.synonym, plural(d.synonym)
			}
			q := fmt.Sprintf(o.queries[j%len(o.queries)], word, words)
			out = append(out, labelledQuery{q, toolName(d, o)})
		}
	}
	return out
}

// description is a tool's description. Half the domains mention their other word, as a
// careful description does; the other half do not, so a query using it must do without.
func description(i int, d domain, o operation) string {
	text := fmt.Sprintf(o.description, strings.ReplaceAll(d.singular, "_", " "), d.plural) + " " + upperFirst(d.plural) + " are " + d.about
	if i%2 == 0 {
		text += " (also called " + d.synonym + "s)"
	}
	return text + "."
}

func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func plural(s string) string {
	if strings.HasSuffix(s, "y") {
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}
