/** `{"message": text}` as Home Assistant's json_message writes it; build once for constant messages. */
export function messageJson(text: string): string {
  return JSON.stringify({ message: text });
}
