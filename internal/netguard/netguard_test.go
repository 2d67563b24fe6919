package netguard

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAllowedAddr(t *testing.T) {
	for _, s := range []string{
		"127.0.0.1", "127.1.2.3", "10.1.2.3", "172.16.5.4", "172.31.255.255", "192.168.1.1",
		"169.254.169.254", "100.64.0.1", "100.100.100.200", "224.0.0.1", "239.255.255.250",
		"0.0.0.0", "255.255.255.255", "::", "::1", "fe80::1", "fe80::1%eth0", "fd00:ec2::254",
		"fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe",
		// IPv4 inside other IPv6 forms: IPv4-compatible, SIIT, 6to4, Teredo (client inverted).
		"::127.0.0.1", "::a9fe:a9fe", "::ffff:0:7f00:1", "::ffff:0:a00:1", "2002:7f00:1::", "2002:a9fe:a9fe::1",
		"2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0:4136:e378:8000:63bf:5601:5601",
	} {
		assert.False(t, Allowed(netip.MustParseAddr(s), nil), s)
	}
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808",
		"::808:808", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"} {
		assert.True(t, Allowed(netip.MustParseAddr(s), nil), s)
	}
	allow := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/24")}
	assert.True(t, Allowed(netip.MustParseAddr("10.0.0.7"), allow))
	assert.False(t, Allowed(netip.MustParseAddr("10.0.1.7"), allow))
}
