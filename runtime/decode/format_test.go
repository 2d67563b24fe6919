package decode

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// formatCases lists, per format, inputs with the answer its RFC gives (format_suite_test.go
// adds the JSON Schema Test Suite's). The comments mark where the reference validator of
// gen/agreement answers otherwise.
var formatCases = map[string][]struct {
	in   string
	want bool
}{
	"date-time": {
		{"2024-01-02T15:04:05Z", true},
		{"2024-01-02t15:04:05z", true},
		{"2024-01-02T15:04:05.123456789+05:30", true},
		{"1990-12-31T15:59:60-08:00", true}, // leap second at 23:59:60 UTC
		{"1990-12-31T23:59:60Z", true},
		{"1990-12-31T22:59:60Z", false}, // leap second not at 23:59 UTC
		{"2024-01-02 15:04:05Z", false},
		{"2024-01-02T15:04:05", false}, // no offset
		{"2024-02-30T00:00:00Z", false},
		{"2024-01-02T24:00:00Z", false},
		{"2024-01-02T15:04:05+0530", false},
		{"", false},
	},
	"date": {
		{"2024-01-02", true},
		{"2024-02-29", true},
		{"2000-02-29", true},
		{"0000-02-29", true},
		{"1900-02-29", false},
		{"2023-02-29", false},
		{"2024-04-31", false},
		{"2024-13-01", false},
		{"2024-00-10", false},
		{"2024-01-00", false},
		{"2024-1-02", false},
		{"24-01-02", false},
		{"2024-01-02T", false},
		{"２024-01-02", false},
	},
	"time": {
		{"15:04:05Z", true},
		{"15:04:05.5z", true},
		{"15:04:05+01:00", true},
		{"23:59:60Z", true},
		{"00:59:60+01:00", true},
		{"+1:04:05Z", false}, // the reference reads "+1" with strconv.Atoi
		{"-0:04:05Z", false}, // and "-0"
		{"-1:04:05Z", false},
		{"15:04:05", false},
		{"15:04:05.Z", false},
		{"15:60:05Z", false},
		{"15:04:61Z", false},
		{"15:04:05+24:00", false},
		{"15:04:05 +01:00", false},
		{"1:04:05Z", false},
	},
	"duration": {
		{"P1Y2M3DT4H5M6S", true},
		{"P3D", true},
		{"PT36H", true},
		{"P2W", true},
		{"P1M", true},
		{"PT1M", true},
		{"P", false},
		{"PT", false},
		{"P1DT", false},
		{"P1H", false},
		{"P1D2M", false}, // units out of order
		{"P1Y2W", false},
		{"PT1H2H", false},
		{"P1Y2D", false},  // not consecutive: the reference accepts it
		{"PT1H2S", false}, // likewise
		{"P1M2D", true},
		{"PT2M3S", true},
		{"P1.5D", false},
		{"1h30m", false}, // Go syntax is not ISO 8601
		{"P1DT1HT1S", false},
		{"p1d", false},
	},
	"email": {
		{"user@example.com", true},
		{"first.last+tag@sub.example.org", true},
		{`"john doe"@example.com`, true},
		{"user@[192.0.2.1]", true},
		{"user@[IPv6:2001:db8::1]", true},
		{"@example.com", false},      // the reference accepts an empty local part
		{"user@example.com.", false}, // and a trailing dot
		{`"a\"b"@example.com`, true}, // a quoted pair: the reference refuses it
		{`"a@b"@example.com`, true},
		{"user", false},
		{"user@", false},
		{".user@example.com", false},
		{"us..er@example.com", false},
		{"user.@example.com", false},
		{"us er@example.com", false},
		{`"a"b"@example.com`, false},
		{`"a\"@example.com`, false},
		{"user@-example.com", false},
		{"user@[300.0.0.1]", false},
		{"josé@example.com", false},
		{strings.Repeat("a", 65) + "@example.com", false},
	},
	"hostname": {
		{"example.com", true},
		{"a", true},
		{"example.com.", false}, // the reference accepts a trailing dot
		{"xn--bcher-kva.example", true},
		{"XN--BCHER-KVA.example", true},
		{"a--b.example", true},
		{"xn--X.example", false},      // not Punycode
		{"xn--example-.com", false},   // decodes to ASCII
		{"xn--al-0ea.example", false}, // "a·l": MIDDLE DOT not between two 'l'
		{"xn--7a.example", false},     // "¡": not a letter or digit
		{"123.example", true},
		{strings.Repeat("a", 63) + ".com", true},
		{strings.Repeat("a", 64) + ".com", false},
		{"", false},
		{".", false},
		{"example..com", false},
		{"-example.com", false},
		{"example-.com", false},
		{"exa_mple.com", false},
		{"bücher.example", false},
		{strings.Repeat("abcdefghi.", 25) + "abcd", false}, // 254 characters
	},
	"ipv4": {
		{"192.0.2.1", true},
		{"0.0.0.0", true},
		{"255.255.255.255", true},
		{"+1.2.3.4", false},  // the reference reads "+1" with strconv.Atoi
		{"-0.2.3.4", false},  // and "-0"
		{"+01.2.3.4", false}, // and looks for a leading zero in the first byte only
		{"256.0.0.1", false},
		{"01.2.3.4", false},
		{"1.2.3", false},
		{"1.2.3.4.5", false},
		{"1.2.3.", false},
		{"1..3.4", false},
		{"-1.2.3.4", false},
		{"1.2.3.4 ", false},
		{"a.b.c.d", false},
	},
	"ipv6": {
		{"2001:db8::1", true},
		{"::", true},
		{"::1", true},
		{"::ffff:192.0.2.1", true},
		{"2001:0db8:0000:0000:0000:ff00:0042:8329", true},
		{"fe80::1%eth0", false}, // zones are not part of an address
		{"fe80::1%", false},
		{"192.0.2.1", false},
		{"2001:db8:::1", false},
		{"2001:db8::g", false},
		{"[::1]", false},
		{"", false},
	},
	"uri": {
		{"https://example.com/path?q=1#frag", true},
		{"mailto:user@example.com", true},
		{"urn:isbn:0451450523", true},
		{"http://[2001:db8::1]:8080/", true},
		{"/relative/path", false},
		{"example.com", false},
		{"http://[2001:db8::g]/", false},
		{"http://exa mple.com/", false},
		{"https://example.com/%zz", false},
		{"https://example.com/foo bar", false}, // the reference accepts these
		{"https://example.com/a|b", false},
		{"https://example.com/{a}", false},
		{"https://example.com/café", false},
		{"http://[v1.x]/", true},
		{"http://host:port/", false},
		{"file:///etc/hosts", true},
		{"", false},
	},
	"uri-reference": {
		{"https://example.com/", true},
		{"//example.com/a", true},
		{"/a/b?c#d", true},
		{"../a", true},
		{"#frag", true},
		{"", true},
		{"1:b", false}, // a colon in the first segment of a relative path
		{"./1:b", true},
		{"/a b", false},
		{"/café", false},
	},
	"iri": {
		{"https://example.com/café?q=ü#ß", true},
		{"https://bücher.example/", true},
		{"https://example.com/?\ue000", true}, // a private-use character in the query
		{"https://example.com/\ue000", false}, // not in the path
		{"https://example.com/a b", false},
		{"/café", false},
		{"https://example.com/\ufffe", false},
	},
	"iri-reference": {
		{"/café", true},
		{"#ƒrägmênt", true},
		{"", true},
		{"#a\\b", false},
		{"https://example.com/café", true},
	},
	"idn-hostname": {
		{"bücher.example", true},
		{"example.com", true},
		{"Example.COM", true},
		{"실례.테스트", true},
		{"a。b", true},             // an ideographic full stop separates labels
		{"Bücher.example", false}, // upper case in a U-label
		{"bücher.example.", false},
		{"-bücher.example", false},
		{"a·l", false},
		{"l·l", true},
		{"¡hola", false},
		{"ab--cd.example", true},
		{"", false},
		{strings.Repeat("ü", 507), false}, // 1014 bytes: refused before any IDNA work
	},
	"uuid": {
		{"123e4567-e89b-12d3-a456-426614174000", true},
		{"123E4567-E89B-12D3-A456-426614174000", true},
		{"00000000-0000-0000-0000-000000000000", true},
		{"123e4567e89b12d3a456426614174000", false},
		{"123e4567-e89b-12d3-a456-42661417400", false},
		{"123e4567-e89b-12d3-a456-4266141740000", false},
		{"123e4567-e89b-12d3-a456_426614174000", false},
		{"g23e4567-e89b-12d3-a456-426614174000", false},
		{"{123e4567-e89b-12d3-a456-426614174000}", false},
	},
}

func TestFormatCases(t *testing.T) {
	for _, name := range FormatNames() {
		check, _, ok := FormatFunc(name)
		if !ok {
			t.Fatalf("FormatFunc(%q) not found", name)
		}
		cases := formatCases[name]
		if len(cases) == 0 {
			t.Fatalf("no cases for format %q", name)
		}
		for _, c := range cases {
			if got := check(c.in); got != c.want {
				t.Errorf("%s(%q) = %v, want %v", name, c.in, got, c.want)
			}
		}
	}
}

func TestFormatFunc(t *testing.T) {
	for _, name := range FormatNames() {
		check, describe, ok := FormatFunc(name)
		if !ok || check == nil {
			t.Fatalf("FormatFunc(%q) = _, _, %v", name, ok)
		}
		// The phrase's example must itself be valid: a model is told to copy it.
		_, example, found := strings.Cut(describe, `"`)
		example = strings.TrimSuffix(example, `"`)
		if !found || !check(example) {
			t.Errorf("FormatFunc(%q): example in %q is not valid", name, describe)
		}
	}
	for _, name := range []string{"", "Date", "regex", "idn-email", "semver"} {
		if check, describe, ok := FormatFunc(name); ok || check != nil || describe != "" {
			t.Errorf("FormatFunc(%q) = %v, %q, %v; want not found", name, check != nil, describe, ok)
		}
	}
	if !slices.IsSorted(FormatNames()) || len(FormatNames()) != len(formats) {
		t.Errorf("FormatNames() = %v, want the %d registry keys sorted", FormatNames(), len(formats))
	}
}

// referenceValidators compiles {"type":"string","format":name} with format assertion on, for
// every supported format.
func referenceValidators(t testing.TB) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, name := range FormatNames() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		url := "mem://" + name + ".json"
		if err := c.AddResource(url, map[string]any{"type": "string", "format": name}); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(url)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = sch
	}
	return out
}

// compareWithReference fails t when a checker accepts s while the reference validator refuses
// it, unless s is one of the things the RFCs allow and the reference refuses (rfcAllows). The
// other way round is expected: the checkers follow the RFCs where the reference is laxer, as
// gen/agreement documents.
func compareWithReference(t testing.TB, refs map[string]*jsonschema.Schema, s string) {
	t.Helper()
	for _, name := range FormatNames() {
		check, _, _ := FormatFunc(name)
		if check(s) && refs[name].Validate(s) != nil && rfcAllows(name, s) == "" {
			t.Errorf("format %s on %q: the checker accepts what the reference validator refuses", name, s)
		}
	}
}

// rfcAllows names the reason a checker accepts s although the reference validator refuses it,
// or returns "" when there is none; the reasons are the ones format.go's doc lists.
func rfcAllows(name, s string) string {
	switch name {
	case "email":
		if local, _, _ := strings.Cut(s, "@"); strings.HasPrefix(local, `"`) && strings.Contains(local, `\`) {
			return "a quoted-pair in the local part (RFC 5321 section 4.1.2)"
		}
	case "uri", "uri-reference", "iri", "iri-reference":
		if strings.Contains(s, "[v") || strings.Contains(s, "[V") {
			return "an IPvFuture host (RFC 3986 section 3.2.2)"
		}
		_, authority, _ := strings.Cut(s, "//")
		if i := strings.IndexAny(authority, "/?#"); i >= 0 {
			authority = authority[:i]
		}
		userinfo, host, ok := strings.Cut(authority, "@")
		if !ok {
			userinfo, host = "", authority
		}
		if strings.HasPrefix(name, "iri") && !isASCII(userinfo) {
			return "non-ASCII userinfo (RFC 3987 section 2.2)"
		}
		if strings.Contains(host, "%") {
			return "a percent-encoded host (RFC 3986 section 3.2.2)"
		}
	}
	return ""
}

// formatSeeds returns the handwritten inputs: every table case plus strings aimed at the
// corners of each grammar.
func formatSeeds() []string {
	var seeds []string
	for _, name := range FormatNames() {
		for _, c := range formatCases[name] {
			seeds = append(seeds, c.in)
		}
	}
	seeds = append(seeds,
		"2016-02-29T23:59:60+00:00", "2016-12-31T23:59:60-00:00", "2016-12-31T00:59:60+01:00",
		"2016-12-31T23:00:60-00:59", "2016-12-31T00:00:60+23:59", "12:00:00-23:59", "00:00:00+23:59",
		"12:00:00+-1:00", "12:00:00+-0:00", "12:00:00++1:00", "12:00:00-+1:+0", "1a:00:00Z", "12:00:00.Z",
		"12:00:00.0000000000000000001Z", "12:00:00.1.2Z", "12::0:00Z", "1::00:00Z", "12:0::00Z", "+0:+0:+0Z",
		"P0D", "P00W", "PT0S", "P1Y1M1D", "P1YT", "PTT1H", "PT1HT", "P1W2D", "PW", "P1S", "PT1D", "P١D",
		"a@b", "a@b.c", `""@x.y`, `"@x.y`, `"""@x.y`, "a@[]", "a@[IPv6:]", "a@[IPv6:1.2.3.4]", "a@[::1]",
		"a@[1.2.3.4", "a@1.2.3.4]", "a@@b.c", "a@b@c.d", "!#$%&'*+-/=?^_`{|}~@x.y",
		"::ffff:1.2.3.4", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::", "::1%",
		"::1%25eth0", "1.2.3.4:80", ":", ":::", "0:0:0:0:0:0:0:0", "::FFFF:1.2.3.04",
		"0.0.0.00", "00.0.0.0", "+255.0.0.0", "+256.0.0.0", "-00.1.1.1", "+.1.1.1", "1.2.3.4.",
		"+0000000000000000000000001.2.3.4", "99999999999999999999.1.1.1",
		"http://[::1]/", "http://::1/", "http://[::1%25en0]/", "http://[fe80::1%25]/", "http://a:b@c:80/",
		"http://a:port/", "a:", "1a:b", "a1+-.:x", "http://%41/", "http://x/%4", "ftp://x/#%zz", "http://[1::]x/",
		"00000000-0000-0000-0000-00000000000g", "00000000-0000-0000-0000_000000000000",
		"é", "\xff", "\x00", "T", "Z", ".", "-", "@", "::", "",
	)
	return seeds
}

// mutate returns s with one to three random edits drawn from characters that matter to some
// format grammar.
func mutate(r *rand.Rand, s string) string {
	const alphabet = "0123456789:.-+TtZzPWYMDHS@[]%/?#\"\\ _aAfFgé\xff\x00"
	pick := func() string {
		// Draw a whole rune sometimes and a single byte other times, so invalid UTF-8 occurs.
		if r.IntN(4) == 0 {
			return []string{"é", "１", "\u212a", "\xc3"}[r.IntN(4)]
		}
		i := r.IntN(len(alphabet))
		return alphabet[i : i+1]
	}
	b := []byte(s)
	for edits := 1 + r.IntN(3); edits > 0; edits-- {
		i := 0
		if len(b) > 0 {
			i = r.IntN(len(b) + 1)
		}
		switch r.IntN(5) {
		case 0: // insert
			b = slices.Insert(b, i, []byte(pick())...)
		case 1: // delete
			if i < len(b) {
				b = slices.Delete(b, i, i+1)
			}
		case 2: // replace
			if i < len(b) {
				b = slices.Replace(b, i, i+1, []byte(pick())...)
			}
		case 3: // duplicate
			if i < len(b) {
				b = slices.Insert(b, i, b[i])
			}
		case 4: // truncate
			b = b[:i]
		}
	}
	return string(b)
}

// TestFormatsNoLaxerThanReference is the differential test: no checker may accept what the
// reference validator refuses, on the handwritten seeds and on thousands of mutations of them.
func TestFormatsNoLaxerThanReference(t *testing.T) {
	refs := referenceValidators(t)
	r := rand.New(rand.NewPCG(1, 2))
	seeds := formatSeeds()
	mutations := 300
	if testing.Short() {
		mutations = 30
	}
	for _, seed := range seeds {
		compareWithReference(t, refs, seed)
		for range mutations {
			compareWithReference(t, refs, mutate(r, seed))
		}
		if t.Failed() {
			return // one seed's worth of mismatches is enough to read
		}
	}
}

func FuzzFormats(f *testing.F) {
	for _, s := range formatSeeds() {
		f.Add(s)
	}
	refs := referenceValidators(f)
	f.Fuzz(func(t *testing.T, s string) {
		compareWithReference(t, refs, s)
	})
}

// TestFormatsDoNotAllocate holds the checkers to their promise that valid input is free;
// internationalized names (an "xn--" label, a non-ASCII idn-hostname) are the documented
// exception, as x/net/idna allocates.
func TestFormatsDoNotAllocate(t *testing.T) {
	for _, name := range FormatNames() {
		check, _, _ := FormatFunc(name)
		for _, c := range formatCases[name] {
			if !c.want || strings.Contains(name, "hostname") && (!isASCII(c.in) || strings.Contains(strings.ToLower(c.in), "xn--")) {
				continue
			}
			if n := testing.AllocsPerRun(10, func() { check(c.in) }); n != 0 {
				t.Errorf("%s(%q) allocates %v times", name, c.in, n)
			}
		}
	}
}

func BenchmarkIsDateTime(b *testing.B) {
	for b.Loop() {
		IsDateTime("2024-01-02T15:04:05.123+05:30")
	}
}

func BenchmarkIsEmail(b *testing.B) {
	for b.Loop() {
		IsEmail("first.last+tag@sub.example.org")
	}
}

func BenchmarkIsUUID(b *testing.B) {
	for b.Loop() {
		IsUUID("123e4567-e89b-12d3-a456-426614174000")
	}
}
