package rocelab.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * A union of intervals the plain way: sorted by start, each merged into the one before. The GPU timeline's states use
 * it, and the tests take it as the reference for the faster unions ({@link HostTransfers}).
 */
final class IntervalUnion {
    private IntervalUnion() {}

    /** Sorted, disjoint intervals covering what {@code intervals} ({from, to} pairs, sorted here in place) cover. */
    static List<long[]> of(List<long[]> intervals) {
        intervals.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] iv : intervals) {
            if (!out.isEmpty() && iv[0] <= out.get(out.size() - 1)[1]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], iv[1]);
            } else {
                out.add(iv.clone());
            }
        }
        return out;
    }
}
