package main

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/uuidv7"
)

// isUUIDText reports whether s has the shape of a UUID's text form, 36
// characters with hyphens at 8, 13, 18 and 23.
func isUUIDText(s string) bool {
	return len(s) == uuidv7.EncodedLen && s[8] == '-' && s[13] == '-' && s[18] == '-' && s[23] == '-'
}

// parseAnyUUID reads the 16 bytes of a UUID of any version from its text
// form.
func parseAnyUUID(s string) ([16]byte, error) {
	var u [16]byte
	digits := s[:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	if _, err := hex.Decode(u[:], []byte(digits)); err != nil {
		return u, fmt.Errorf("%s is not a UUID: %v", excerpt.Text(s), err)
	}
	return u, nil
}

// gregorianToUnix is the number of 100 ns intervals between the start of
// the Gregorian calendar (1582-10-15), the epoch of UUID versions 1 and
// 6, and the Unix epoch.
const gregorianToUnix = 0x01B21DD213814000

// uuidInfo describes a UUID of any version: its version, variant and,
// for versions 7, 6 and 1, the time it holds.
func uuidInfo(input string, u [16]byte) Info {
	version := int(u[6] >> 4)
	info := Info{
		Input: input, Type: kindUUID, ID: uuidv7.UUID(u).String(),
		Hex: hex.EncodeToString(u[:]), Version: &version, Variant: uuidVariant(u[8]),
	}
	var at time.Time
	rfc := info.Variant == "RFC 9562"
	switch {
	case rfc && version == 7:
		info.Type = kindUUIDv7
		at = time.UnixMilli(int64(binary.BigEndian.Uint64(u[:8]) >> 16))
	case rfc && version == 6:
		ts := uint64(binary.BigEndian.Uint32(u[0:4]))<<28 | uint64(binary.BigEndian.Uint16(u[4:6]))<<12 | uint64(binary.BigEndian.Uint16(u[6:8])&0x0FFF)
		at = gregorianTime(ts)
	case rfc && version == 1:
		ts := uint64(binary.BigEndian.Uint16(u[6:8])&0x0FFF)<<48 | uint64(binary.BigEndian.Uint16(u[4:6]))<<32 | uint64(binary.BigEndian.Uint32(u[0:4]))
		at = gregorianTime(ts)
	default:
		return info
	}
	info.Time = at.UTC().Format(uuidTimeLayout)
	info.Unix = at.Unix()
	return info
}

// uuidTimeLayout is RFC 3339 with the fraction a UUID's time holds:
// milliseconds for version 7, and 100 ns for 1 and 6 (to the 7th digit).
const uuidTimeLayout = "2006-01-02T15:04:05.9999999Z07:00"

// gregorianTime is the time of a 60-bit count of 100 ns intervals since
// 1582-10-15.
func gregorianTime(ts uint64) time.Time {
	d := int64(ts) - gregorianToUnix
	return time.Unix(d/1e7, d%1e7*100)
}

// uuidVariant names the variant of a UUID by the high bits of its byte 8.
func uuidVariant(b byte) string {
	switch {
	case b>>7 == 0:
		return "NCS (reserved)"
	case b>>6 == 0b10:
		return "RFC 9562"
	case b>>5 == 0b110:
		return "Microsoft (reserved)"
	}
	return "future (reserved)"
}
