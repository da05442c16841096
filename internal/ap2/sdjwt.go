package ap2

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// sdJWT is one SD-JWT of a mandate chain with its disclosures applied.
type sdJWT struct {
	jwt jws
	// claims is the issuer-signed payload with every presented disclosure
	// put in place of its digest and the undisclosed digests removed.
	claims map[string]any
	// text is the SD-JWT as presented, "<JWT>~<disclosure>~…~", over which
	// sd_hash and a receipt's reference are computed.
	text string
}

// parseChain splits a presented mandate into its SD-JWTs. A chain is the
// SD-JWTs one after another, each ending with "~" and separated by one
// more "~" (delegate SD-JWT): "<open>~<disclosure>~~<closed>~<disclosure>~".
// Signatures are not checked here.
func parseChain(s string) ([]sdJWT, error) {
	if !strings.HasSuffix(s, "~") {
		return nil, errors.New("an SD-JWT ends with \"~\"")
	}
	var chain []sdJWT
	for part := range strings.SplitSeq(strings.TrimSuffix(s, "~"), "~~") {
		sd, err := parseSDJWT(part + "~")
		if err != nil {
			return nil, fmt.Errorf("SD-JWT %d of the chain: %w", len(chain)+1, err)
		}
		chain = append(chain, sd)
	}
	return chain, nil
}

// parseSDJWT decodes one "<JWT>~<disclosure>~…~" and applies its disclosures.
func parseSDJWT(text string) (sdJWT, error) {
	tokens := strings.Split(strings.TrimSuffix(text, "~"), "~")
	j, err := parseJWS(tokens[0])
	if err != nil {
		return sdJWT{}, err
	}
	var payload map[string]any
	if err := json.Unmarshal(j.payload, &payload); err != nil {
		return sdJWT{}, fmt.Errorf("JWT payload: %w", err)
	}
	if alg, ok := payload["_sd_alg"]; ok && alg != "sha-256" {
		return sdJWT{}, fmt.Errorf("_sd_alg %v is not supported, only sha-256", alg)
	}
	d := disclosures{byDigest: map[string][]any{}, used: map[string]bool{}}
	for _, t := range tokens[1:] {
		if err := d.add(t); err != nil {
			return sdJWT{}, err
		}
	}
	revealed, err := d.reveal(payload)
	if err != nil {
		return sdJWT{}, err
	}
	for digest := range d.byDigest {
		if !d.used[digest] {
			return sdJWT{}, fmt.Errorf("disclosure %s is not referenced by the JWT", digest)
		}
	}
	claims := revealed.(map[string]any)
	delete(claims, "_sd_alg")
	return sdJWT{jwt: j, claims: claims, text: text}, nil
}

// disclosures are the decoded disclosures of an SD-JWT, by digest.
type disclosures struct {
	byDigest map[string][]any
	used     map[string]bool
}

func (d disclosures) add(token string) error {
	raw, err := b64.DecodeString(token)
	if err != nil {
		return fmt.Errorf("disclosure is not base64url: %w", err)
	}
	var arr []any
	if err := json.Unmarshal(raw, &arr); err != nil || len(arr) < 2 || len(arr) > 3 {
		return errors.New("a disclosure is a JSON array of a salt, an optional name and a value")
	}
	digest := hashOf(token)
	if _, dup := d.byDigest[digest]; dup {
		return fmt.Errorf("disclosure %s is presented twice", digest)
	}
	d.byDigest[digest] = arr
	return nil
}

// take returns the disclosure of digest, at most once; ok is false when
// it was not presented.
func (d disclosures) take(digest any) ([]any, bool, error) {
	s, isString := digest.(string)
	if !isString {
		return nil, false, errors.New("a digest is a string")
	}
	arr, ok := d.byDigest[s]
	if !ok {
		return nil, false, nil
	}
	if d.used[s] {
		return nil, false, fmt.Errorf("digest %s is referenced twice", s)
	}
	d.used[s] = true
	return arr, true, nil
}

// reveal replaces the digests in v ("_sd" of an object, {"...": digest}
// in an array) by what their disclosures reveal, recursively.
func (d disclosures) reveal(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if k == "_sd" {
				continue
			}
			r, err := d.reveal(x)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		digests, _ := v["_sd"].([]any)
		for _, digest := range digests {
			arr, ok, err := d.take(digest)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			name, isName := arr[1].(string)
			if len(arr) != 3 || !isName || name == "_sd" || name == "..." {
				return nil, fmt.Errorf("disclosure %v of an object property needs a salt, a name and a value", digest)
			}
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("claim %q is both in the JWT and disclosed", name)
			}
			r, err := d.reveal(arr[2])
			if err != nil {
				return nil, err
			}
			out[name] = r
		}
		return out, nil
	case []any:
		out := []any{}
		for _, x := range v {
			if m, ok := x.(map[string]any); ok && len(m) == 1 && m["..."] != nil {
				arr, ok, err := d.take(m["..."])
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
				if len(arr) != 2 {
					return nil, fmt.Errorf("disclosure %v of an array element needs a salt and a value", m["..."])
				}
				x = arr[1]
			}
			r, err := d.reveal(x)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return out, nil
	}
	return v, nil
}
