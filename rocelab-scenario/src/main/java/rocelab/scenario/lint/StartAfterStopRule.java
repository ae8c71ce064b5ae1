package rocelab.scenario.lint;

import java.util.List;
import java.util.Locale;
import rocelab.workload.traffic.TrafficSpec;

/**
 * L20: a traffic item that starts at or after {@code run.stop-at} never sends: the run stops first, and its flows end
 * in the summary as unfinished, with nothing on the wire to say why. Not an error: a scenario may be cut short on
 * purpose to look at its beginning, but then the late items are worth a word.
 */
final class StartAfterStopRule implements LintRule {
    @Override
    public String id() {
        return "L20";
    }

    @Override
    public String title() {
        return "Traffic that starts after the run stops";
    }

    @Override
    public void check(LintContext c, Findings out) {
        long stop = c.config().stopAtPs();
        if (stop == Long.MAX_VALUE) {
            return;
        }
        List<TrafficSpec> items = c.config().traffic();
        for (int i = 0; i < items.size(); i++) {
            long start = items.get(i).earliestStartPs();
            if (start >= stop) {
                out.add(this, Severity.WARNING, List.of(), List.of(),
                        "traffic item " + (i + 1) + " starts at " + us(start) + ", at or after run.stop-at "
                                + us(stop),
                        "it never sends: the run stops first, and its flows count as unfinished",
                        "start it before " + us(stop) + ", or stop the run later (run.stop-at)");
            }
        }
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f us", ps / 1e6);
    }
}
