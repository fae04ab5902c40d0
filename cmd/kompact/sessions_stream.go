package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"kompact"
	"kompact/httpapi"
	"kompact/internal/atomicfile"
	"kompact/sessionjson"
)

// importBatchBytes is about how much of a session file's messages list
// sessions import checks at a time, as the server's import route reads it.
const importBatchBytes = 512 << 10

// importStreamed imports the session document at path without holding it:
// the file is checked a batch of messages at a time (sessionjson's
// SessionStream, the server route's own reader), then sent as it is read,
// with --id and --agent as the route's query, and the server's answer is
// read a message at a time. The client's memory follows its buffers, not
// the file. A file the check refuses is read whole to word the error as
// compact words it (the file's name, the line and column, a kimi-cli
// file's advice); nothing is sent.
func (c *sessionsCommand) importStreamed(ctx context.Context, api *httpapi.Client, path string) (int, error) {
	f, size, err := openSession(path)
	if err != nil {
		return exitError, err
	}
	defer f.Close()
	if err := checkSessionFile(path, f); err != nil {
		return exitError, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return exitError, kompact.Errorf(kompact.EInternal, "read %s again: %v", path, err)
	}
	s, err := api.ImportSessionFrom(ctx, bufio.NewReaderSize(f, 256<<10), size, c.id, c.agent)
	if err != nil {
		return exitError, importFixes(reachError(err))
	}
	fmt.Fprintf(c.stdout, "imported session %s (agent %s, %s)\n", s.ID, s.Agent, kompact.CountOf(s.Messages, "message"))
	return exitOK, nil
}

// openSession opens the session file at path and returns its size.
func openSession(path string) (*os.File, int64, error) {
	err := atomicfile.CheckRegular(path)
	var f *os.File
	if err == nil {
		f, err = os.Open(path)
	}
	var st os.FileInfo
	if err == nil {
		if st, err = f.Stat(); err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		return nil, 0, kompact.Errorf(kompact.EInvalid, "read session: %w", err).
			WithFixes("Pass the path of a session JSON file, or - to read it from standard input.")
	}
	return f, st.Size(), nil
}

// checkSessionFile reads the session document f holds a batch at a time
// and refuses it as a whole read would (see importStreamed).
func checkSessionFile(path string, f *os.File) error {
	st := sessionjson.NewSessionStream(bufio.NewReaderSize(f, 256<<10), importBatchBytes)
	_, err := st.Head()
	for err == nil {
		var msgs []kompact.Message
		if msgs, err = st.Next(); err == nil && len(msgs) == 0 {
			return nil
		}
	}
	var ue *sessionjson.UTF8Error
	if errors.As(err, &ue) {
		where := ""
		if _, serr := f.Seek(0, io.SeekStart); serr == nil {
			where = sessionjson.MessageAt(f, ue.At)
		}
		return notUTF8(path, ue.At, where)
	}
	// Refused otherwise: read the file whole, to word the error.
	data, rerr := os.ReadFile(path)
	if rerr != nil {
		return kompact.Errorf(kompact.EInvalid, "read session: %w", rerr)
	}
	if err := checkSessionUTF8(path, data); err != nil {
		return err
	}
	if _, derr := sessionjson.DecodeSession(data); derr != nil {
		return kimiFileError(fmt.Errorf("%s: %w", inputName(path), derr), path, data, "kompact sessions import --kimi FILE")
	}
	return fmt.Errorf("%s: %w", inputName(path), err)
}
