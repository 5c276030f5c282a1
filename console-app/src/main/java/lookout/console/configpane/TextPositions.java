package lookout.console.configpane;

/** Line:column (1-based, as in {@code ConfigProblem}) ⇄ character index in the editor's text. */
public final class TextPositions {

    private TextPositions() {
    }

    /** Index of {@code line}:{@code column}, clamped to the text (a column past the end of its line stops there). */
    public static int indexOf(String text, int line, int column) {
        int idx = 0;
        int l = 1;
        while (l < line) {
            int nl = text.indexOf('\n', idx);
            if (nl < 0) {
                return text.length();
            }
            idx = nl + 1;
            l++;
        }
        int lineEnd = text.indexOf('\n', idx);
        if (lineEnd < 0) {
            lineEnd = text.length();
        }
        return Math.min(idx + Math.max(0, column - 1), lineEnd);
    }

    /** {line, column} of {@code index}, both 1-based. */
    public static int[] lineColumnOf(String text, int index) {
        int line = 1;
        int lineStart = 0;
        int end = Math.min(index, text.length());
        for (int i = 0; i < end; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new int[] {line, end - lineStart + 1};
    }
}
