// Text that comes from a log (a header comment, a bad line's excerpt, a field value) is shown to
// people in a terminal, in the HTML report and in the GUI. A control character in it must never
// reach them raw: an ANSI escape (ESC [ … m) recolours or rewrites the terminal, a carriage return
// or a backspace hides what came before, BEL rings, NUL truncates, and the bidirectional controls
// reorder what is read (the "Trojan source" trick). showControl() writes each one as a visible
// escape in the style of a JavaScript string (`\x1b`, `\u202e`) and keeps every printable
// character, any script, as it is. Pure and idempotent (its output has no control character left,
// so showing it again changes nothing).

/** C0 controls except tab and newline, DEL, C1 controls, and the bidirectional marks/overrides/isolates. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g
/** The same plus tab and newline: for a value meant to stay on one line. */
const CONTROL_ONE_LINE = /[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

function visible(c: string): string {
  const n = c.charCodeAt(0)
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`
}

/** Text with every control character shown as an escape; tabs and newlines are kept. */
export function showControl(text: string): string {
  return text.replace(CONTROL, visible)
}

/** showControl for one-line values (a header field, a line's excerpt): tabs and newlines are shown too. */
export function showControlOneLine(text: string): string {
  return text.replace(CONTROL_ONE_LINE, visible)
}

/** Whether text holds a control character that showControl would escape. */
export function hasControl(text: string): boolean {
  return new RegExp(CONTROL.source).test(text)
}
