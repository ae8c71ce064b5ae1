package rocelab.observe.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.engine.Time;
import rocelab.fabric.network.RetryFailure;
import rocelab.fabric.topology.Topology;

/**
 * What the links did to a queue pair that ran out of retries ({@link RetryFailure}), in words for the summary and the
 * journey and as summary.json's {@code retry_failures} entry. Only what the fabric recorded at the failure is said.
 */
public final class RetryFailureText {
    /** Down links named in one sentence; the rest are counted (summary.json lists them all). */
    static final int LINKS_SHOWN = 4;

    private RetryFailureText() {}

    /**
     * {@code "h3 was unreachable from h1: the link h3 - leaf1 was down (since 30.000 us); no link went down or up
     * after its ACK timer last started, at 3178.690 us (no new ACK since)"}.
     */
    public static String why(RetryFailure f, Topology t) {
        return cause(f, t) + "; " + steadiness(f);
    }

    static String cause(RetryFailure f, Topology t) {
        return t.nodeName(f.dst()) + " was unreachable from " + t.nodeName(f.src()) + ": " + links(f, t);
    }

    private static String links(RetryFailure f, Topology t) {
        List<RetryFailure.DownLink> l = f.links();
        int shown = Numbers.shown(l.size(), LINKS_SHOWN);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < shown; i++) {
            RetryFailure.DownLink d = l.get(i);
            names.add(t.nodeName(d.nodeA()) + " - " + t.nodeName(d.nodeB()) + " (down since " + us(d.downSincePs())
                    + " us)");
        }
        String list = String.join(l.size() > 2 || shown < l.size() ? ", " : " and ", names)
                + (shown < l.size() ? " and " + (l.size() - shown) + " more" : "");
        if (!f.eachReconnects()) {
            // No one link joins the two sides: every link that was down is named, not the cut.
            return "links down then: " + list;
        }
        if (l.size() == 1) {
            RetryFailure.DownLink d = l.get(0);
            return "the link " + t.nodeName(d.nodeA()) + " - " + t.nodeName(d.nodeB()) + " had been down since "
                    + us(d.downSincePs()) + " us";
        }
        return "the links " + list + " were down, and any one of them back up would have joined them";
    }

    /** Whether the links stood as told through the QP's last stretch with no new ACK, or changed in it. */
    static String steadiness(RetryFailure f) {
        return f.heldThroughLastAttempt()
                ? "no link went down or up after its ACK timer last started, at " + us(f.lastTimerStartPs())
                        + " us (no new ACK since)"
                : "the links last changed at " + us(f.linksSteadySincePs()) + " us, after its ACK timer last started"
                        + " at " + us(f.lastTimerStartPs()) + " us (no new ACK since): told as they stood when it"
                        + " failed";
    }

    /** The summary.json entry: {@code queue_pair, flows, src, dst, at_us, ...}. */
    public static Map<String, Object> json(RetryFailure f, List<Integer> flows, Topology t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("queue_pair", f.queuePair());
        m.put("flows", List.copyOf(flows));
        m.put("src", t.nodeName(f.src()));
        m.put("dst", t.nodeName(f.dst()));
        m.put("at_us", Numbers.micros(f.atPs()));
        m.put("timer_started_us", Numbers.micros(f.lastTimerStartPs()));
        m.put("cause", "unreachable");
        List<Object> links = new ArrayList<>();
        for (RetryFailure.DownLink d : f.links()) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("a", t.nodeName(d.nodeA()));
            l.put("b", t.nodeName(d.nodeB()));
            l.put("down_since_us", Numbers.micros(d.downSincePs()));
            links.add(l);
        }
        m.put("links", links);
        m.put("each_link_reconnects", f.eachReconnects());
        m.put("links_unchanged_since_timer_started", f.heldThroughLastAttempt());
        return m;
    }

    private static String us(long ps) {
        return String.format(Locale.ROOT, "%.3f", ps / (double) Time.PS_PER_US);
    }
}
