package rocelab.observe.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.fabric.network.IdealSlowLinks;

/**
 * The fabric's slow links that the ideal network has too ({@link IdealSlowLinks}), in words for the summary's
 * {@code ideal} line, the ideal model's {@code not modelled} note and the report, and as summary.json's
 * {@code ideal_slow_links}. Every "ideal" figure is an idle fabric of this fabric's links, so a degraded cable or
 * uplinks slower than the RNICs set the ideal and what their rate costs is never network wait: said where it happens,
 * so a small GPU wait is not read as a healthy fabric.
 */
public final class IdealSlowLinksText {
    /** Links named in one sentence; the rest are counted (summary.json lists them all). */
    static final int SHOWN = 4;

    /**
     * What it means for the figures, after the links are named. Not "only what sharing them costs": a lone flow from a
     * 400 Gb/s sender through a 100 Gb/s cable, nothing beside it, lost 0.62 ms of 2.0 ms to DCQCN's cuts at the queue
     * the faster sender built in front of the cable, and that is in the GPU wait too.
     */
    public static final String CONSEQUENCE = "a message over them is held to their rate (and delay) there as in the"
            + " run, so the network penalty, GPU wait and every ideal figure leave their rate out and count only what"
            + " the run lost beyond it (sharing them, or a queue a faster sender builds in front of them and its"
            + " congestion control's answer)";

    private IdealSlowLinksText() {}

    /**
     * {@code "h4-leaf1 at 25 Gb/s (the other 7 host links 100 Gb/s)"}, and the slow tiers, {@code "the 4 links between
     * switches 1 and 2 hops from the hosts (as leaf0-spine0) at 25 Gb/s, under the host links' 100 Gb/s"}; empty when
     * there are none.
     */
    public static String links(IdealSlowLinks s) {
        List<String> parts = new ArrayList<>();
        int shown = Numbers.shown(s.links().size(), SHOWN);
        for (IdealSlowLinks.Link l : s.links().subList(0, shown)) {
            List<String> what = new ArrayList<>();
            if (l.slower()) {
                what.add("at " + gbps(l.rateBps()) + " Gb/s");
            }
            if (l.longer()) {
                what.add(micros(l.delayPs()) + " us long");
            }
            List<String> theirs = new ArrayList<>();
            if (l.slower()) {
                theirs.add(gbps(l.roleRateBps()) + " Gb/s");
            }
            if (l.longer()) {
                theirs.add(micros(l.roleDelayPs()) + " us");
            }
            parts.add(l.a() + "-" + l.b() + " " + String.join(" and ", what) + " (the other " + l.peers() + " "
                    + l.role() + ": " + String.join(", ", theirs) + ")");
        }
        if (shown < s.links().size()) {
            parts.add((s.links().size() - shown) + " more (summary.json ideal_slow_links)");
        }
        for (IdealSlowLinks.Tier t : s.tiers()) {
            parts.add((t.links() == 1 ? "the 1 link " : "the " + t.links() + " links ") + t.role().substring(
                    "links ".length()) + " (as " + t.example() + ") at " + gbps(t.rateBps()) + " Gb/s, under the host"
                    + " links' " + gbps(t.hostRateBps()) + " Gb/s");
        }
        return String.join("; ", parts);
    }

    /** The summary's sentence: the links named and what that means; empty when there are none. */
    public static String sentence(IdealSlowLinks s) {
        return s.isEmpty() ? "" : "the ideal network these figures compare against is an idle fabric of this"
                + " fabric's links, these slow ones too: " + links(s) + "; " + CONSEQUENCE;
    }

    /** summary.json's {@code ideal_slow_links}: every link and tier, and the consequence; null when there are none. */
    public static Map<String, Object> json(IdealSlowLinks s) {
        if (s.isEmpty()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        List<Object> links = new ArrayList<>();
        for (IdealSlowLinks.Link l : s.links()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("link", l.a() + "-" + l.b());
            row.put("role", l.role());
            row.put("others", l.peers());
            row.put("rate_gbps", Numbers.round(l.rateBps() / 1e9, 3));
            row.put("role_rate_gbps", Numbers.round(l.roleRateBps() / 1e9, 3));
            row.put("delay_us", Numbers.micros(l.delayPs()));
            row.put("role_delay_us", Numbers.micros(l.roleDelayPs()));
            links.add(row);
        }
        m.put("links", links);
        List<Object> tiers = new ArrayList<>();
        for (IdealSlowLinks.Tier t : s.tiers()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("role", t.role());
            row.put("example", t.example());
            row.put("links", t.links());
            row.put("rate_gbps", Numbers.round(t.rateBps() / 1e9, 3));
            row.put("host_rate_gbps", Numbers.round(t.hostRateBps() / 1e9, 3));
            tiers.add(row);
        }
        m.put("tiers", tiers);
        m.put("text", sentence(s));
        return m;
    }

    private static String gbps(long bps) {
        return bps % 1_000_000_000L == 0 ? Long.toString(bps / 1_000_000_000L)
                : String.format(Locale.ROOT, "%.1f", bps / 1e9);
    }

    private static String micros(long ps) {
        return ps % 1_000_000 == 0 ? Long.toString(ps / 1_000_000) : String.format(Locale.ROOT, "%.3f", ps / 1e6);
    }
}
