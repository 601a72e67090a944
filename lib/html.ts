// Server-built HTML (the link-unavailable page, e-mails): every interpolated value goes through
// this one escape, attributes and text alike.

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => entities[ch] ?? ch);
