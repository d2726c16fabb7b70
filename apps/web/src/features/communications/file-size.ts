/** A file's size for people: "56 KB", "1.4 MB" (in the page's language). */
export function formatFileSize(bytes: number, language: string): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString(language)} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString(language, { maximumFractionDigits: 1 })} MB`;
}
