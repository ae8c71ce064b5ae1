package rocelab.observe.journey;

import static rocelab.observe.journey.JourneyText.line;
import static rocelab.observe.journey.JourneyText.us;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.observe.flow.FlowRecord;

/**
 * The journey's words for loss recovery: a go-back-N or a selective repeat as the QP reported it, with the packets
 * re-sent because of it (those that name it), and in the header how much of the flow went by before its local ACK
 * timeouts fired.
 */
final class RecoveryText {
    private RecoveryText() {}

    /** The packets re-sent after one recovery, in the order sent. */
    static final class Resends {
        JourneyEvent first;
        JourneyEvent last;
        long count;
        long lowPsn = Long.MAX_VALUE;
        long highPsn = -1;
        /** PSN ranges as sent, {from, to} each. */
        final List<long[]> ranges = new ArrayList<>();

        void add(JourneyEvent e) {
            if (first == null) {
                first = e;
            }
            last = e;
            count++;
            lowPsn = Math.min(lowPsn, e.psn());
            highPsn = Math.max(highPsn, e.psn());
            long[] r = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (r != null && e.psn() == r[1] + 1) {
                r[1] = e.psn();
            } else {
                ranges.add(new long[] {e.psn(), e.psn()});
            }
        }
    }

    /** The PSNs of {@code r} as ranges, {@code 37-38, 41-45}; after eight ranges, how many more. */
    private static String ranges(Resends r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.ranges.size() && i < 8; i++) {
            long[] x = r.ranges.get(i);
            b.append(i == 0 ? "" : ", ").append(x[0]).append(x[1] > x[0] ? "-" + x[1] : "");
        }
        if (r.ranges.size() > 8) {
            b.append(String.format(Locale.ROOT, " and %d more ranges", r.ranges.size() - 8));
        }
        return b.toString();
    }

    /** The PSNs sent again alone after one recovery of a QP that repeats selectively. */
    static String selectiveResends(int host, Resends r) {
        if (r.count == 1) {
            return String.format(Locale.ROOT, "h%d re-sends PSN %d alone (selective repeat)", host, r.first.psn());
        }
        return String.format(Locale.ROOT, "h%d re-sends %,d PSNs alone (selective repeat): %s, from %s to %s us",
                host, r.count, ranges(r), us(r.first.timePs()), us(r.last.timePs()));
    }

    /**
     * A recovery as the QP reported it: a go-back-N after a NAK or a local ACK timeout, told once with the packets
     * re-sent because of it (those that name it); a selective repeat's timeout (its re-sends are told where they
     * start); the retries spent.
     */
    static String recovery(JourneyEvent e, JourneyEvent.Recovery r, Map<Integer, Resends> all) {
        String timer = String.format(Locale.ROOT, "h%d's local ACK timeout (%s us) fired: no new ACK since %s us%s",
                e.node(), us(r.timeoutPs()), us(r.noAckSincePs()), r.restartedByFiring()
                        ? " (the timer restarted at " + us(r.timerStartPs()) + " us, when it last fired)" : "");
        if (r.failed()) {
            return String.format(Locale.ROOT, "%s, and %s: the QP fails (retry exceeded)", timer,
                    r.retryLimit() == 0 ? "it may not retry (retry-count 0)" : r.retryLimit() == 1
                            ? "its one retry is spent" : "its " + r.retryLimit() + " retries are spent");
        }
        if (r.selective()) {
            return r.timeout() ? String.format(Locale.ROOT, "%s; it will send again alone the %,d PSN%s it cannot know"
                    + " arrived (selective repeat, retry %d of %d)", timer, r.packets(), r.packets() == 1 ? "" : "s",
                    r.retry(), r.retryLimit()) : null;
        }
        Resends s = all.get(r.number());
        String sent;
        if (s == null) {
            sent = r.packets() == 0 ? "it had sent nothing from there, so nothing is re-sent"
                    : String.format(Locale.ROOT, "none of the %,d packet%s it had sent from there is re-sent before"
                            + " the next recovery", r.packets(), r.packets() == 1 ? "" : "s");
        } else {
            String psns = s.highPsn > s.lowPsn ? "PSNs " + s.lowPsn + "-" + s.highPsn : "PSN " + s.lowPsn;
            sent = String.format(Locale.ROOT, "re-sends %s (%,d %s) from %s to %s us", psns, s.count,
                    s.count == r.packets() ? (s.count == 1 ? "packet" : "packets")
                            : String.format(Locale.ROOT, "of the %,d packets it had sent from there", r.packets()),
                    us(s.first.timePs()), us(s.last.timePs()));
        }
        if (r.timeout()) {
            return String.format(Locale.ROOT, "%s; it goes back to PSN %d (go-back-N, retry %d of %d) and %s", timer,
                    r.fromPsn(), r.retry(), r.retryLimit(), sent);
        }
        return String.format(Locale.ROOT, "h%d goes back to PSN %d after the NAK (go-back-N) and %s", e.node(),
                r.fromPsn(), sent);
    }

    /**
     * How much of the flow went by before its QP's local ACK timeouts fired: each timeout is preceded by a stretch
     * with nothing new acknowledged, as long as the timeout (from when the timer started, as the QP reported it).
     */
    static void timeouts(StringBuilder b, FlowRecord f, List<JourneyEvent> events) {
        long end = f.completed() ? f.finishPs() : Long.MAX_VALUE;
        int fired = 0;
        long waited = 0;
        long timeoutPs = 0;
        for (JourneyEvent e : events) {
            if (e.kind() == JourneyEvent.Kind.RECOVERY && e.cause() instanceof JourneyEvent.Recovery r && r.timeout()
                    && e.timePs() >= f.startPs() && e.timePs() <= end) {
                fired++;
                waited += e.timePs() - Math.max(r.timerStartPs(), f.startPs());
                timeoutPs = r.timeoutPs();
            }
        }
        if (fired == 0) {
            return;
        }
        String share = "";
        if (f.completed() && f.fctPs() > 0) {
            double part = (double) waited / f.fctPs();
            share = String.format(Locale.ROOT, ", %.1f%% of its FCT%s", 100 * part,
                    part >= 0.5 ? ": most of the flow's time passed waiting for it" : "");
        }
        line(b, "  its QP's local ACK timeout (%s us) fired %d time%s: %s us with no new ACK before %s%s",
                us(timeoutPs), fired, fired == 1 ? "" : "s", us(waited), fired == 1 ? "it fired" : "they fired", share);
    }
}
