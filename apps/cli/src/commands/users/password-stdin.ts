/** A password on stdin ends with the newline of `echo` or of the terminal; it is not part of it. */
export function passwordFromStdin(input: string): string {
  return input.replace(/\r?\n$/, '');
}
