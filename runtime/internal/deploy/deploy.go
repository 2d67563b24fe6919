// Package deploy declares deploy, a //tool:confirm tool whose argument types encoding/json
// cannot marshal back into what the model sent: TextUnmarshalers without MarshalText (with
// only unexported fields), a json:"-" field and an unexported one. The registry's approval tests run its generated code: an approval must cover exactly
// the JSON the model sent.
package deploy

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"strings"
)

// Host is a host name, decoded from text; it has no MarshalText, so encoding/json marshals
// it as {}.
type Host struct{ name string }

// UnmarshalText keeps the name.
func (h *Host) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		return fmt.Errorf("empty host name")
	}
	h.name = string(text)
	return nil
}

func (h Host) String() string { return h.name }

// Version is a release, given as "major.minor"; only unexported fields, so encoding/json
// marshals it as {} too.
type Version struct{ major, minor int }

// UnmarshalText reads "major.minor".
func (v *Version) UnmarshalText(text []byte) error {
	_, err := fmt.Sscanf(string(text), "%d.%d", &v.major, &v.minor)
	return err
}

func (v Version) String() string { return fmt.Sprintf("%d.%d", v.major, v.minor) }

// DeployArgs are the arguments of deploy.
type DeployArgs struct {
	// Target is the host to deploy to.
	Target Host `json:"target"`
	// Version to deploy.
	Version Version `json:"version"`
	// Region of the target.
	Region string `json:"region,omitempty" tool:"default=eu-west"`
	// Hosts also restarted afterwards.
	Restart []Host `json:"restart,omitempty"`
	// Token is never read from the model.
	Token string `json:"-"`
	note  string
}

// Deploy deploys a version to a host.
//
//tool:name deploy
//tool:confirm deploys to a live host
//tool:risk high
//tool:timeout none
func Deploy(_ context.Context, args DeployArgs) (string, error) {
	restart := make([]string, len(args.Restart))
	for i, h := range args.Restart {
		restart[i] = h.name
	}
	return fmt.Sprintf("deployed %v to %s in %s%s; restarted [%s]", args.Version, args.Target, args.Region, args.note, strings.Join(restart, " ")), nil
}
