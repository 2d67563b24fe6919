package runtime

// PartKind is the kind of a Part.
type PartKind string

// The kinds of Part.
const (
	PartImage        PartKind = "image"         // Data in MIMEType (image/png, image/jpeg, …)
	PartAudio        PartKind = "audio"         // Data in MIMEType (audio/wav, audio/mpeg, …)
	PartResourceLink PartKind = "resource_link" // a link to a resource: URI, Name, MIMEType
	PartResource     PartKind = "resource"      // an embedded resource: URI with Text or Data
)

// Part is a piece of a result beyond its text: an image, audio, a link to a resource or an
// embedded resource. A handler returns parts in a runtime.Result (R = runtime.Result); MCP
// sends them natively and each provider adapter maps them to what its API accepts, or says in
// the text what it had to leave out.
type Part struct {
	Kind     PartKind
	MIMEType string
	Data     []byte // image or audio bytes, or an embedded binary resource
	Text     string // an embedded text resource
	URI      string // the resource's URI (resource links and embedded resources)
	Name     string // the resource's name (resource links)
	Title    string // a human-readable title, when there is one
	// Description says what the resource is, for resource links.
	Description string
	Size        int64 // the resource's size in bytes, when known (resource links)
}

// ImagePart returns an image part of data in mime (image/png, image/jpeg, image/gif, …).
func ImagePart(mime string, data []byte) Part {
	return Part{Kind: PartImage, MIMEType: mime, Data: data}
}

// AudioPart returns an audio part of data in mime (audio/wav, audio/mpeg, …).
func AudioPart(mime string, data []byte) Part {
	return Part{Kind: PartAudio, MIMEType: mime, Data: data}
}

// ResourceLinkPart returns a link to the resource at uri.
func ResourceLinkPart(uri, name, mime string) Part {
	return Part{Kind: PartResourceLink, URI: uri, Name: name, MIMEType: mime}
}

// TextResourcePart returns an embedded text resource.
func TextResourcePart(uri, mime, text string) Part {
	return Part{Kind: PartResource, URI: uri, MIMEType: mime, Text: text}
}
