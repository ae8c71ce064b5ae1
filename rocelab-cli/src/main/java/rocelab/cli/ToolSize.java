package rocelab.cli;

import rocelab.scenario.read.UnitParser;

/**
 * A message size as the benchmark tools take it on their command lines: bytes, or a number with K, M or G for powers
 * of 1024 (perftest's and nccl-tests' suffixes), or any size with a rocelab unit ({@code 64KiB}, {@code 1MB}).
 */
final class ToolSize {
    private ToolSize() {}

    /**
     * @param fractional whether a fraction is read too ({@code 1.5M}: nccl-tests' parsesize reads a double, and
     *     truncates the product to whole bytes)
     * @throws IllegalArgumentException or ArithmeticException when {@code text} is not a size
     */
    static long parse(String text, boolean fractional) {
        String t = text.strip();
        boolean whole = t.matches("\\d+[KkMmGg]?");
        if (!whole && !(fractional && t.matches("\\d*\\.\\d+[KkMmGg]?"))) {
            return UnitParser.bytes(t);
        }
        char last = Character.toUpperCase(t.charAt(t.length() - 1));
        long mult = last == 'K' ? 1L << 10 : last == 'M' ? 1L << 20 : last == 'G' ? 1L << 30 : 1;
        String number = mult == 1 ? t : t.substring(0, t.length() - 1);
        return whole ? Math.multiplyExact(Long.parseLong(number), mult) : (long) (Double.parseDouble(number) * mult);
    }
}
