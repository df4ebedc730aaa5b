package main

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// The kinds of ID, as named on the command line and in the API. inspect
// also reads UUIDs of other versions, as kindUUID.
const (
	kindKSUID    = "ksuid"
	kindObjectID = "objectid"
	kindUUIDv7   = "uuidv7"
	kindUUID     = "uuid"
)

func parseKind(s string) (string, error) {
	switch strings.ToLower(s) {
	case kindKSUID, "":
		return kindKSUID, nil
	case kindObjectID, "oid":
		return kindObjectID, nil
	case kindUUIDv7, "uuid7", "v7":
		return kindUUIDv7, nil
	}
	return "", fmt.Errorf("unknown ID type %q: want ksuid, objectid or uuidv7", s)
}

// parseTime reads a time: RFC 3339 (2024-05-01T12:00:00Z), a bare date
// (2024-05-01, midnight UTC), Unix seconds, "now", or a duration from now
// with a sign (-1h, +30m, -2h30m). It reports whether s was a bare date.
func parseTime(s string) (t time.Time, date bool, err error) {
	switch {
	case s == "now":
		return time.Now().UTC(), false, nil
	case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
		if d, err := time.ParseDuration(s); err == nil {
			return time.Now().UTC().Add(d), false, nil
		}
	}
	if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.Unix(sec, 0).UTC(), false, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, true, nil
	}
	t, err = time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("cannot read time %q: want RFC 3339 (2024-05-01T12:00:00Z), a date (2024-05-01), Unix seconds, now, or a duration from now (-1h)", s)
	}
	return t, false, nil
}

// idMaker makes IDs of one kind, at a fixed time or now, and appends
// their text form to a buffer.
type idMaker struct {
	kind    string
	at      *time.Time
	gen     *ksuid.Generator  // nil: ksuid.New
	uuidGen *uuidv7.Generator // for kindUUIDv7
}

func newIDMaker(kind string, at *time.Time, monotonic bool) (*idMaker, error) {
	m := &idMaker{kind: kind, at: at}
	if kind == kindUUIDv7 {
		// Always monotonic: --monotonic changes nothing.
		var opts []uuidv7.Option
		if at != nil {
			if _, err := uuidv7.MinAt(*at); err != nil {
				return nil, err
			}
			t := *at
			opts = append(opts, uuidv7.WithClock(func() time.Time { return t }))
		}
		m.uuidGen = uuidv7.NewGenerator(opts...)
		return m, nil
	}
	if kind == kindObjectID {
		if monotonic {
			return nil, errors.New("--monotonic applies to KSUIDs; ObjectIDs from one process already count up")
		}
		if at != nil {
			if _, err := objectid.MinAt(*at); err != nil {
				return nil, err
			}
		}
		return m, nil
	}
	var opts []ksuid.Option
	if monotonic {
		opts = append(opts, ksuid.WithMonotonic())
	}
	if at != nil {
		if _, err := ksuid.MinAt(*at); err != nil {
			return nil, err
		}
		t := *at
		opts = append(opts, ksuid.WithClock(func() time.Time { return t }))
	}
	// A Generator returns errors where ksuid.New would panic.
	m.gen = ksuid.NewGenerator(opts...)
	return m, nil
}

// appendNew appends a new ID's text form to b.
func (m *idMaker) appendNew(b []byte) ([]byte, error) {
	if m.uuidGen != nil {
		id, err := m.uuidGen.New()
		if err != nil {
			return b, err
		}
		return id.AppendText(b)
	}
	if m.kind == kindObjectID {
		var id objectid.ObjectID
		if m.at != nil {
			var err error
			if id, err = objectid.NewAt(*m.at); err != nil {
				return b, err
			}
		} else {
			id = objectid.New()
		}
		return id.AppendText(b)
	}
	id, err := m.gen.New()
	if err != nil {
		return b, err
	}
	return id.AppendText(b)
}

// Info is what inspect tells about an ID.
type Info struct {
	Input     string  `json:"input"`
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	Time      string  `json:"time"`
	Unix      int64   `json:"unix"`
	Timestamp uint32  `json:"timestamp"`
	Hex       string  `json:"hex"`
	Payload   string  `json:"payload,omitempty"`
	Random    string  `json:"random,omitempty"`
	Counter   *uint32 `json:"counter,omitempty"`
	Legacy    *Legacy `json:"legacy,omitempty"`
	// A UUID's version and variant. Its time is empty, and unix 0, for
	// versions that hold none (4, 8, the nil UUID).
	Version *int   `json:"version,omitempty"`
	Variant string `json:"variant,omitempty"`
}

// Legacy is an ObjectID read in the layout of older drivers.
type Legacy struct {
	Machine string `json:"machine"`
	PID     uint16 `json:"pid"`
	Counter uint32 `json:"counter"`
}

// inspect decodes s, a KSUID or an ObjectID told apart by length, in any
// of the forms databases show them: the text forms (27 base62 characters,
// 24 hex digits), PostgreSQL's hex form of a bytea (\x and 40 or 24 hex
// digits, as psql prints it), the 20 bytes of a KSUID as 40 plain hex
// digits, base64 of 20 or 12 bytes, and the shell forms mongosh and the
// old mongo shell print and take: Binary.createFromBase64("…", 0),
// BinData(0, "…"), HexData(0, "…") and ObjectId("…").
func inspect(s string) (Info, error) {
	in, err := unwrapShell(trimPasted(s))
	if err != nil {
		return Info{}, err
	}
	return inspectBare(s, in)
}

// trimPasted removes what comes with a value copied from a line of a
// document: spaces and a trailing comma.
func trimPasted(s string) string {
	s = strings.TrimSpace(s)
	if t, ok := strings.CutSuffix(s, ","); ok {
		s = strings.TrimSpace(t)
	}
	return s
}

// shellForm matches a MongoDB shell constructor, with new as Node.js
// prints it or without: its name and arguments.
var shellForm = regexp.MustCompile(`^(?:new\s+)?(Binary\.createFromBase64|BinData|HexData|ObjectId|UUID)\s*\((.*)\)$`)

// shellForms lists what unwrapShell reads, for errors.
const shellForms = `ObjectId("<24 hex digits>"), new ObjectId('…'), UUID("<uuid>"), Binary.createFromBase64("<base64>", 0 or 4), BinData(0 or 4, "<base64>"), HexData(0 or 4, "<hex>"), ` +
	`{"$oid": "<24 hex digits>"} or {"$binary": {"base64": "<base64>", "subType": "00" or "04"}}`

// shellArg matches one argument of a shell constructor: a quoted string or
// a number.
var shellArg = regexp.MustCompile(`^\s*(?:"([^"]*)"|'([^']*)'|(\d+))\s*$`)

// shellUsage is how each shell constructor is written, for errors.
var shellUsage = map[string]string{
	"Binary.createFromBase64": `Binary.createFromBase64("<base64>", 0)`,
	"BinData":                 `BinData(0, "<base64>")`,
	"HexData":                 `HexData(0, "<40 or 24 hex digits>")`,
	"ObjectId":                `ObjectId("<24 hex digits>")`,
	"UUID":                    `UUID("<8-4-4-4-12 hex digits>")`,
}

// unwrapShell returns the bare ID inside a MongoDB shell constructor, or
// in unchanged when it is not one. Binary values must be of subtype 0
// (generic), the one KSUIDs are stored as, or 4 (UUID) holding 16 bytes.
func unwrapShell(in string) (string, error) {
	if strings.HasPrefix(in, "{") {
		return unwrapExtJSON(in)
	}
	m := shellForm.FindStringSubmatch(in)
	if m == nil {
		if strings.ContainsAny(in, "(){}") {
			return "", fmt.Errorf("%s: not a form sortid reads; it reads %s", excerpt.Text(in), shellForms)
		}
		return in, nil
	}
	var text, subtype string
	args := strings.Split(m[2], ",")
	for i, a := range args {
		am := shellArg.FindStringSubmatch(a)
		if am == nil {
			return "", fmt.Errorf("%s: argument %d is not a quoted string or a number", excerpt.Text(in), i+1)
		}
		if am[3] != "" {
			subtype = am[3]
		} else {
			text = am[1] + am[2]
		}
	}
	wantArgs := 2
	if m[1] == "ObjectId" || m[1] == "UUID" {
		wantArgs = 1
	}
	if m[1] == "Binary.createFromBase64" && len(args) == 1 {
		subtype = "0" // mongosh's default subtype
		wantArgs = 1
	}
	switch {
	case len(args) != wantArgs || text == "":
		return "", fmt.Errorf("%s: want %s", excerpt.Text(in), shellUsage[m[1]])
	case m[1] != "ObjectId" && m[1] != "UUID" && subtype != "0" && subtype != "4":
		return "", fmt.Errorf("%s: binary subtype %s; sortid stores IDs as subtype 0 (generic) and UUIDs as 4", excerpt.Text(in), subtype)
	}
	// What is inside is decoded here, and handed on in a form inspectBare
	// cannot read as another type: the bytes as \x hex, or an ObjectID's
	// text. Told apart by length, base64 of 18 bytes would pass for an
	// ObjectID's 24 characters, and a KSUID's text inside ObjectId() for a
	// KSUID.
	switch m[1] {
	case "ObjectId":
		if _, err := objectid.Parse(text); err != nil {
			return "", fmt.Errorf("%s: ObjectId() holds 24 hex digits: %w", excerpt.Text(in), err)
		}
		return text, nil
	case "UUID":
		if !isUUIDText(text) && len(text) != 2*uuidv7.Size {
			return "", fmt.Errorf("%s: UUID() holds 8-4-4-4-12 or 32 hex digits", excerpt.Text(in))
		}
		return text, nil
	case "HexData":
		if subtype == "4" && len(text) != 2*uuidv7.Size || subtype == "0" && len(text) != 2*ksuid.Size && len(text) != 2*objectid.Size {
			return "", fmt.Errorf("%s: %d hex digits; a KSUID is 40, an ObjectID 24 (subtype 0) and a UUID 32 (subtype 4)", excerpt.Text(in), len(text))
		}
		return `\x` + text, nil
	}
	return binaryID(in, text, subtype)
}

// binaryID returns the ID whose bytes b64 holds as \x hex, for
// inspectBare; in is what the user gave, for errors. Of subtype 4, the
// bytes must be a UUID's 16.
func binaryID(in, b64, subtype string) (string, error) {
	b, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil {
		return "", fmt.Errorf("%s: not base64: %v", excerpt.Text(in), err)
	}
	if strings.TrimLeft(subtype, "0") == "4" {
		if len(b) != uuidv7.Size {
			return "", fmt.Errorf("%s: binary of subtype 4 and %d bytes; a UUID is 16", excerpt.Text(in), len(b))
		}
	} else if len(b) != ksuid.Size && len(b) != objectid.Size {
		return "", fmt.Errorf("%s: base64 of %d bytes; a KSUID is 20 bytes and an ObjectID 12", excerpt.Text(in), len(b))
	}
	return `\x` + hex.EncodeToString(b), nil
}

// unwrapExtJSON returns the bare ID inside MongoDB Extended JSON: an
// ObjectId {"$oid": "…"}, or binary of subtype 0 in the form of version 2
// (canonical and relaxed are alike for binary) or of version 1, which
// mongoexport wrote: {"$binary": "<base64>", "$type": "00"}.
func unwrapExtJSON(in string) (string, error) {
	want := func(why string) error {
		return fmt.Errorf(`%s: %s; want {"$oid": "<24 hex digits>"} or {"$binary": {"base64": "<base64>", "subType": "00"}}`, excerpt.Text(in), why)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(in), &doc); err != nil {
		return "", want("not JSON: " + err.Error())
	}
	str := func(raw json.RawMessage) (string, bool) {
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	}
	var b64, subtype string
	switch {
	case len(doc) == 1 && doc["$oid"] != nil:
		text, ok := str(doc["$oid"])
		if !ok {
			return "", want("$oid is not a string")
		}
		if _, err := objectid.Parse(text); err != nil {
			return "", fmt.Errorf("%s: $oid holds 24 hex digits: %w", excerpt.Text(in), err)
		}
		return text, nil
	case len(doc) == 1 && doc["$binary"] != nil:
		var bin map[string]json.RawMessage
		if err := json.Unmarshal(doc["$binary"], &bin); err != nil || len(bin) != 2 || bin["base64"] == nil || bin["subType"] == nil {
			return "", want(`$binary is not {"base64": …, "subType": …}`)
		}
		var ok1, ok2 bool
		b64, ok1 = str(bin["base64"])
		subtype, ok2 = str(bin["subType"])
		if !ok1 || !ok2 {
			return "", want("base64 and subType are strings")
		}
	case len(doc) == 2 && doc["$binary"] != nil && doc["$type"] != nil:
		var ok1, ok2 bool
		b64, ok1 = str(doc["$binary"])
		subtype, ok2 = str(doc["$type"])
		if !ok1 || !ok2 {
			return "", want("$binary and $type are strings")
		}
	default:
		return "", want("not an ObjectId or binary")
	}
	if subtype != "00" && subtype != "0" && subtype != "04" && subtype != "4" {
		return "", fmt.Errorf("%s: binary subtype %s; sortid stores IDs as subtype 0 (generic) and UUIDs as 4", excerpt.Text(in), subtype)
	}
	return binaryID(in, b64, subtype)
}

// inspectBare decodes in, a bare ID in one of the forms inspect takes; s
// is what the user gave, for the report.
func inspectBare(s, in string) (Info, error) {
	var (
		k   ksuid.KSUID
		o   objectid.ObjectID
		err error
	)
	switch {
	case isUUIDText(in):
		u, err := parseAnyUUID(in)
		if err != nil {
			return Info{}, err
		}
		return uuidInfo(s, u), nil
	case strings.HasPrefix(in, `\x`) && len(in) == 2+2*uuidv7.Size, len(in) == 2*uuidv7.Size:
		var u [16]byte
		if _, err := hex.Decode(u[:], []byte(strings.TrimPrefix(in, `\x`))); err != nil {
			return Info{}, fmt.Errorf("%s is not the hex of a UUID's 16 bytes: %v", excerpt.Text(s), err)
		}
		return uuidInfo(s, u), nil
	case len(in) == ksuid.EncodedLen:
		k, err = ksuid.Parse(in)
		return ksuidInfo(s, k, err)
	case len(in) == objectid.EncodedLen:
		o, err = objectid.Parse(in)
		return objectIDInfo(s, o, err)
	case strings.HasPrefix(in, `\x`) && len(in) == 2+2*ksuid.Size:
		return ksuidInfo(s, k, k.Scan(in))
	case strings.HasPrefix(in, `\x`) && len(in) == 2+2*objectid.Size:
		return objectIDInfo(s, o, o.Scan(in))
	case len(in) == 2*ksuid.Size:
		b, err := hex.DecodeString(in)
		if err != nil {
			return Info{}, fmt.Errorf("%s is not the hex of a KSUID's 20 bytes: %v", excerpt.Text(s), err)
		}
		return ksuidInfo(s, ksuid.KSUID(b), nil)
	case len(in) == base64.StdEncoding.EncodedLen(ksuid.Size), len(in) == base64.StdEncoding.EncodedLen(objectid.Size):
		b, err := base64.StdEncoding.DecodeString(in)
		switch {
		case err != nil:
			return Info{}, fmt.Errorf("%s is not base64 of a KSUID's 20 bytes or an ObjectID's 12: %v", excerpt.Text(s), err)
		case len(b) == ksuid.Size:
			return ksuidInfo(s, ksuid.KSUID(b), nil)
		case len(b) == objectid.Size:
			return objectIDInfo(s, objectid.ObjectID(b), nil)
		}
		return Info{}, fmt.Errorf("%s is base64 of %d bytes; a KSUID is 20 and an ObjectID 12", excerpt.Text(s), len(b))
	}
	return Info{}, fmt.Errorf("%s is not an ID: a KSUID is 27 base62 characters, an ObjectID 24 hex digits "+
		"and a UUID 36 characters 8-4-4-4-12 (or their bytes as \\x hex, 40 or 32 hex digits, or base64), this is %d characters", excerpt.Text(s), len(in))
}

func ksuidInfo(input string, id ksuid.KSUID, err error) (Info, error) {
	if err != nil {
		return Info{}, err
	}
	payload := id.Payload()
	return Info{
		Input: input, Type: kindKSUID, ID: id.String(),
		Time: id.Time().Format(time.RFC3339), Unix: id.Time().Unix(), Timestamp: id.Timestamp(),
		Hex: hex.EncodeToString(id[:]), Payload: hex.EncodeToString(payload[:]),
	}, nil
}

func objectIDInfo(input string, id objectid.ObjectID, err error) (Info, error) {
	if err != nil {
		return Info{}, err
	}
	random, counter, legacy := id.Random(), id.Counter(), id.Legacy()
	return Info{
		Input: input, Type: kindObjectID, ID: id.String(),
		Time: id.Time().Format(time.RFC3339), Unix: id.Time().Unix(), Timestamp: id.Timestamp(),
		Hex: hex.EncodeToString(id[:]), Random: hex.EncodeToString(random[:]), Counter: &counter,
		Legacy: &Legacy{Machine: fmt.Sprintf("%06x", legacy.Machine), PID: legacy.PID, Counter: legacy.Counter},
	}, nil
}
