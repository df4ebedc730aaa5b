package idtype

import (
	"github.com/sortid/sortid/internal/byteahex"
	"github.com/sortid/sortid/internal/excerpt"
)

// Scan is the rule of the ID types' sql.Scanner: a string or []byte
// holding the text form, a []byte of exactly Size bytes, or PostgreSQL's
// hex form of a bytea (\x and 2*Size hex digits, which no text form can
// be). NULL and every other type are errors. dst, Size bytes, is written
// only on success.
func (s *Spec) Scan(dst []byte, src any) error {
	var err error
	switch v := src.(type) {
	case string:
		if byteahex.Is(v, s.Size) {
			err = fromBytea(s, dst, v)
		} else {
			err = s.ParseString(dst, v)
		}
	case []byte:
		switch {
		case byteahex.Is(v, s.Size):
			err = fromBytea(s, dst, v)
		case len(v) == s.Size:
			if s.CheckBytes != nil {
				if err = s.CheckBytes(v); err != nil {
					return s.scanError(src, err, s.detail(err))
				}
			}
			copy(dst, v)
		case len(v) == s.TextLen:
			err = s.ParseBytes(dst, v)
		default:
			return s.scanError(src, s.ErrInvalidLength, s.ScanWant)
		}
	case nil:
		return s.nullError("scan", "NULL")
	default:
		return s.scanError(src, s.ErrUnsupportedType, "want string or []byte")
	}
	if err != nil {
		return s.scanError(src, err, s.detail(err))
	}
	return nil
}

// scanError describes a value Scan rejects by its Go type and, bounded,
// its value.
func (s *Spec) scanError(src any, cause error, detail string) error {
	what := excerpt.Source(src, cause == s.ErrInvalidLength)
	return s.Errorf("cannot scan "+what+" into "+s.Type+": "+detail, cause)
}

// fromBytea decodes the hex form byteahex.Is recognizes, into a buffer
// first so that dst is left alone when a digit is bad.
func fromBytea[T string | []byte](s *Spec, dst []byte, text T) error {
	var buf [32]byte
	if offset, ok := byteahex.Decode(buf[:len(dst)], text); !ok {
		return s.ByteaError(string(text), offset)
	}
	if s.CheckBytes != nil {
		if err := s.CheckBytes(buf[:len(dst)]); err != nil {
			return err
		}
	}
	copy(dst, buf[:len(dst)])
	return nil
}
