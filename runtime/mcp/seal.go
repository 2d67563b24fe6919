package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Tokens the server hands out and reads back (an elicitation round's state, a stored
// result's link) are sealed, not only signed: they name the registry session and the user,
// which whoever sees a link (a model among them) must not read. Each purpose has its own key,
// derived from the server's, so a token issued for one purpose never opens as another.
const (
	purposeRoundState = "toolgen mcp: elicitation round state"
	purposeResultLink = "toolgen mcp: stored result link"
)

var errNotSealedHere = errors.New("not issued by this server")

// sealer seals and opens tokens with AES-256-GCM under keys derived from one server key.
type sealer struct {
	round, link cipher.AEAD
}

func newSealer(key []byte) sealer {
	return sealer{round: aead(key, purposeRoundState), link: aead(key, purposeResultLink)}
}

func aead(key []byte, purpose string) cipher.AEAD {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(purpose))
	block, err := aes.NewCipher(m.Sum(nil)) // 32 bytes: AES-256, never an error
	if err != nil {
		panic(err)
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return gcm
}

// seal returns data encrypted and authenticated, as URL-safe text.
func seal(a cipher.AEAD, data []byte) string {
	nonce := make([]byte, a.NonceSize(), a.NonceSize()+len(data)+a.Overhead())
	rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(a.Seal(nonce, nonce, data, nil))
}

// unseal opens a token of seal's making, refusing any other. The text is decoded strictly:
// a token has one spelling, where a lenient decoder would accept another last letter that
// differs only in bits the encoding leaves unused.
func unseal(a cipher.AEAD, token string) ([]byte, error) {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(raw) < a.NonceSize() {
		return nil, errNotSealedHere
	}
	data, err := a.Open(nil, raw[:a.NonceSize()], raw[a.NonceSize():], nil)
	if err != nil {
		return nil, errNotSealedHere
	}
	return data, nil
}
