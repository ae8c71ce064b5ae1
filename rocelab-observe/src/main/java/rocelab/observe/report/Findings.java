package rocelab.observe.report;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import rocelab.observe.ecmp.EcmpLog;
import rocelab.observe.output.Numbers;
import rocelab.observe.output.SummaryText;

/**
 * What went wrong, right under the key numbers: a deadlock and its cycle, lint errors, the pause propagation tree and
 * the victims. It reads summary.json's tree as data (any top-level key naming victims, whatever its entries hold), so
 * a richer victim analysis shows up without changes here.
 */
final class Findings {
    /** Rows of a table (all of them when only one more is left: it is shown rather than counted). */
    private static final int MAX = 12;
    /** Lint findings listed one by one (as rocelab run prints them); the rest are counted. */
    private static final int LINT_SHOWN = 20;

    private Findings() {}

    /**
     * summary.json's {@code retry_failures}: each QP that ran out of retries while links were down, with what they did
     * to it (the fabric's record at the failure), as a list under the failed flows; empty without any.
     */
    static String retryFailures(Map<String, Object> s) {
        if (!(s.get("retry_failures") instanceof List<?> l) || l.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("<ul>");
        int shown = Numbers.shown(l.size(), MAX);
        for (Object o : l.subList(0, shown)) {
            if (!(o instanceof Map<?, ?> f)) {
                continue;
            }
            List<String> links = new ArrayList<>();
            if (f.get("links") instanceof List<?> ls) {
                for (Object x : ls) {
                    if (x instanceof Map<?, ?> k) {
                        links.add(k.get("a") + " - " + k.get("b") + " (down since "
                                + Fmt.time(KeyNumbers.dbl(k.get("down_since_us"))) + ")");
                    }
                }
            }
            String cause = f.get("dst") + " was unreachable from " + f.get("src");
            List<String> flows = f.get("flows") instanceof List<?> fl ? fl.stream().map(String::valueOf).toList()
                    : List.of();
            b.append("<li>QP ").append(Page.esc(String.valueOf(f.get("queue_pair"))))
                    .append(flows.size() == 1 ? " (flow " : " (flows ").append(Page.esc(String.join(", ", flows)))
                    .append(") ran out of retries at ")
                    .append(Page.esc(Fmt.time(KeyNumbers.dbl(f.get("at_us"))))).append(": ").append(Page.esc(cause))
                    .append(Boolean.TRUE.equals(f.get("each_link_reconnects")) ? "; down: " : "; links down then: ")
                    .append(Page.esc(String.join(", ", links)))
                    .append(Boolean.TRUE.equals(f.get("links_unchanged_since_timer_started"))
                            ? "; no link went down or up after its ACK timer last started ("
                                    + Page.esc(Fmt.time(KeyNumbers.dbl(f.get("timer_started_us")))) + ", no new ACK"
                                    + " since)"
                            : "; the links changed after its ACK timer last started: told as they stood when it failed")
                    .append("</li>");
        }
        if (shown < l.size()) {
            b.append("<li>and ").append(l.size() - shown).append(" more (summary.json retry_failures)</li>");
        }
        return b.append("</ul>").toString();
    }

    static void append(Page p, ReportData d) {
        Map<String, Object> s = d.summary;
        p.h2("Findings");
        List<String> items = new ArrayList<>();
        String stop = ReportWriter.str(s.get("stop_reason"));
        if ("deadlock".equals(stop)) {
            boolean credits = s.containsKey("credit_deadlock_cycle");
            String kind = credits ? "credit" : "pfc";
            items.add("<li class='err'><b>" + (credits ? "Credit deadlock" : "PFC deadlock")
                    + "</b>: data stopped moving at or before " + Page.esc(Fmt.time(KeyNumbers.dbl(s.get(kind + "_deadlock_since_us"))))
                    + " (the checks run 1 ms apart; throughput.csv shows when) and moved no more"
                    + (credits ? "; the queues waiting for credits form a cycle: " : "; the paused queues form a cycle: ")
                    + Page.esc(s.get(kind + "_deadlock_cycle") instanceof List<?> c
                    ? String.join(" → ", c.stream().map(String::valueOf).toList()) : "") + "</li>");
        } else if ("all-failed".equals(stop) || "some-failed".equals(stop)) {
            Object failed = s.get("flows") instanceof Map<?, ?> f ? f.get("failed") : null;
            Object count = s.get("flows") instanceof Map<?, ?> f ? f.get("count") : null;
            long notPosted = KeyNumbers.lng(KeyNumbers.at(s, "flows", "not_posted"));
            items.add("<li class='err'><b>" + ("all-failed".equals(stop) ? "No flow completed" : "Flows failed")
                    + "</b>: " + failed + " of " + count + " flows failed (their QPs ran out of retries)"
                    + (notPosted > 0 ? "; " + Fmt.count(notPosted) + " more were never posted: a failure reached them"
                    + " first (flows.csv status <code>not_posted</code>)" : "")
                    + "; the run ended with stop reason " + Page.esc(stop) + retryFailures(s) + "</li>");
        } else if (!"completed".equals(stop) && !stop.isEmpty()) {
            items.add("<li class='err'>the run ended by <b>" + Page.esc(stop) + "</b> before every flow finished</li>");
        }
        if (!"deadlock".equals(stop) && s.get("pfc_deadlock_cycle") instanceof List<?> c) {
            // A cycle that a PFC watchdog on one of its queues was to break: the run went on for it.
            long storms = KeyNumbers.lng(KeyNumbers.at(s, "counters", "pfc_watchdog_storms"));
            items.add("<li class='err'><b>PFC deadlock</b>: data stopped moving at or before "
                    + Page.esc(Fmt.time(KeyNumbers.dbl(s.get("pfc_deadlock_since_us"))))
                    + " (the checks run 1 ms apart; throughput.csv shows when); the paused queues formed a cycle: "
                    + Page.esc(String.join(" → ", c.stream().map(String::valueOf).toList()))
                    + ". A PFC watchdog watches one of them, so the run went on: it declared " + Fmt.count(storms)
                    + (storms == 1 ? " pause storm" : " pause storms") + " in the run (ports.csv"
                    + " <code>pfc_wd_storms_detected</code>)</li>");
        }
        // The lint's findings and the fabric's oversubscription are about the scenario, not about what its pauses did:
        // counted apart, so that a run with them still says that it had no deadlock, pauses or victims.
        int lintItems = 0;
        for (Map<String, Object> tree : List.of(s, d.manifest)) {
            Object lint = tree.get("lint");
            if (lint instanceof List<?> l && !l.isEmpty()) {
                boolean errors = l.stream().anyMatch(f -> f instanceof Map<?, ?> m && "error".equals(m.get("severity")));
                StringBuilder b = new StringBuilder("<li" + (errors ? " class='err'" : "") + "><b>rocelab lint: "
                        + l.size() + " finding" + (l.size() == 1 ? "" : "s") + "</b>:<ul>");
                int shown = Numbers.shown(l.size(), LINT_SHOWN);
                for (Object f : l.subList(0, shown)) {
                    b.append("<li>").append(lintLine(f)).append("</li>");
                }
                if (l.size() > shown) {
                    b.append("<li>and ").append(l.size() - shown).append(" more (manifest.json lint has them all)</li>");
                }
                items.add(b.append("</ul></li>").toString());
                lintItems++;
            }
        }
        if (s.get("oversubscription") instanceof List<?> tiers) {
            // Each oversubscribed tier's ratio, and what its uplinks carried against the flows' time (summary.json).
            for (Object o : tiers) {
                if (o instanceof Map<?, ?> t) {
                    boolean pace = Boolean.TRUE.equals(t.get("set_the_pace"));
                    items.add("<li" + (pace ? " class='err'" : "") + "><b>" + Page.esc(String.valueOf(t.get("tier")))
                            + " uplinks " + Page.esc(ratios(t)) + " oversubscribed</b>"
                            + (t.get("text") == null ? "" : ": " + Page.esc(String.valueOf(t.get("text"))))
                            + "</li>");
                    lintItems++;
                }
            }
        }
        Object tree = s.get("pfc_propagation");
        int trees = tree instanceof List<?> l ? l.size() : 0;
        if (trees > 0) {
            // The roots are the distinct congestion points (or storms) the links' first XOFFs trace to; several links
            // can be paused at one root (hop 0 each: every ingress feeding a congested egress pauses its peer).
            long atRoot = ((List<?>) tree).stream().filter(e -> e instanceof Map<?, ?> m
                    && Integer.valueOf(0).equals(num(m.get("hop")))).count();
            long roots = ((List<?>) tree).stream().filter(e -> e instanceof Map<?, ?> m && m.get("root") != null)
                    .map(e -> String.valueOf(((Map<?, ?>) e).get("root"))).distinct().count();
            // "Spread" only where some first XOFF was passed on from a paused egress (hop 1 or more): a run whose every
            // link was paused at its root (moe-alltoall's nine) has pauses, not a spread.
            items.add("<li><b>" + (atRoot < trees ? "PFC pauses spread" : "PFC pauses") + "</b> " + (atRoot < trees
                    ? "over " : "at ") + trees + " device-port-priority link" + (trees == 1 ? "" : "s") + " from "
                    + roots + " root" + (roots == 1 ? "" : "s") + " (their first XOFFs' congestion points"
                    + (cycleRoots(tree) ? " or pause cycles" : "") + "; " + (atRoot < trees ? atRoot + " of the links"
                            + " paused at their root, hop 0" : (trees == 1 ? "the link" : "every link") + " paused at its"
                            + " root, hop 0: no first XOFF was passed on from a paused egress") + "); the tree is below</li>");
        }
        List<String> victimKeys = new ArrayList<>();
        for (String k : s.keySet()) {
            if (k.contains("victim")) {
                Object v = s.get(k);
                if (v instanceof Number) {
                    continue; // a count: told with the list it counts (pfc_victim_count with pfc_victims)
                }
                victimKeys.add(k);
                int n = size(v);
                // The count of all victims when the summary gives one (the list holds the first ones only).
                Object counted = s.get(k.endsWith("s") ? k.substring(0, k.length() - 1) + "_count" : k + "_count");
                long all = counted instanceof Number c ? c.longValue() : n;
                if (all > 0) {
                    // As many as the table below shows (it lists at most MAX of the summary's first ones).
                    int shown = Numbers.shown(n, MAX);
                    items.add("<li class='err'><b>" + Page.esc(label(k)) + "</b>: " + all
                            + (shown < all ? " (the first " + shown + " listed below)" : " (listed below)") + "</li>");
                } else if (trees > 0) {
                    items.add("<li><b>" + Page.esc(label(k)) + "</b>: none</li>");
                }
            }
        }
        if (!d.packetLevel()) {
            // A flow-level or ideal run has no pauses, credits or queues: that it found none of their consequences
            // says nothing, so the findings say what the model does not show instead.
            items.add("<li>" + Page.esc(notShown(d)) + "</li>");
        } else if (items.size() == lintItems && "roce-lossy".equals(s.get("mode"))) {
            // Without PFC there is nothing to propagate, and victims of pauses are not looked for: "no victims" would
            // read as "no flow was hurt by others' congestion", which a shared queue's flows may well have been.
            items.add("<li>no PFC on a lossy fabric: no pauses, so no pause propagation, deadlock or PFC victims;"
                    + " flows that share a congested queue are slowed by it directly (their FCTs and slowdowns)</li>");
        } else if (items.size() == lintItems) {
            items.add("<li>no deadlock, no pause propagation and no victims</li>");
        }
        // The fabric's slow links the ideal network has too (summary.json ideal_slow_links): a small network wait
        // beside them is not a healthy fabric, so they are told whatever else the run found.
        if (s.get("ideal_slow_links") instanceof Map<?, ?> slow && slow.get("text") instanceof String text) {
            items.add("<li><b>Slow links in the ideal network</b>: " + Page.esc(text) + "</li>");
        }
        // Cycles of pauses the PFC log found (summary.json pfc_cycles), whether or not one ended the run.
        if (s.get("pfc_cycles") instanceof List<?> cycles && s.get("simulated_seconds") instanceof Number end) {
            for (Object o : cycles) {
                if (o instanceof Map<?, ?> m && m.get("held") instanceof List<?> held) {
                    long[] spells = new long[2 * held.size()];
                    for (int k = 0; k < held.size(); k++) {
                        Map<?, ?> h = (Map<?, ?>) held.get(k);
                        spells[2 * k] = ps(h.get("from_us"));
                        spells[2 * k + 1] = h.get("to_us") == null ? -1 : ps(h.get("to_us"));
                    }
                    items.add("<li class='err'><b>PFC pause cycle</b>: " + Page.esc(text(m.get("cycle"))) + ": "
                            + Page.esc(SummaryText.spells(spells, Math.round(end.doubleValue() * 1e12)))
                            + " (the root of the pauses it held, in pfc.csv and flows.csv)</li>");
                }
            }
        }
        // Receivers whose senders their congestion control held back while the receiver's link had room
        // (summary.json held_by_rate, HeldByRate): told only when there were some.
        if (s.get("held_by_rate") instanceof List<?> held && !held.isEmpty()) {
            int shown = Numbers.shown(held.size(), 3);
            for (Object o : held.subList(0, shown)) {
                if (o instanceof Map<?, ?> m && m.get("rate_held_share_min") instanceof Number min
                        && m.get("rate_held_share_max") instanceof Number max
                        && m.get("link_utilisation") instanceof Number used
                        && m.get("path_utilisation_max") instanceof Number path) {
                    String lo = SummaryText.percent(min.doubleValue());
                    String hi = SummaryText.percent(max.doubleValue());
                    items.add("<li class='err'><b>Senders held back by congestion control</b>: the " + text(m.get("flows"))
                            + " flows into " + Page.esc(text(m.get("receiver"))) + " spent " + (lo.equals(hi) ? lo : lo + "-" + hi)
                            + " % of their lives with data ready that their rate held back, while "
                            + Page.esc(text(m.get("link"))) + " (towards " + Page.esc(text(m.get("receiver")))
                            + ") carried " + SummaryText.percent(used.doubleValue())
                            + " % of its capacity from " + text(m.get("from_us")) + " us to " + text(m.get("to_us"))
                            + " us, all of them sending, and no port on their paths more than "
                            + SummaryText.percent(path.doubleValue())
                            + " % (flows.csv rate_held_us, summary.json held_by_rate)</li>");
                }
            }
            if (held.size() > shown) {
                items.add("<li>and " + (held.size() - shown) + " more receivers whose senders were held back"
                        + " (summary.json held_by_rate)</li>");
            }
        }
        // Receivers' last flows held back by their own rate, alone, while the link had room (summary.json held_alone,
        // HeldAlone): told only when there were some, in the summary's words.
        if (s.get("held_alone") instanceof List<?> alone && !alone.isEmpty()) {
            int shown = Numbers.shown(alone.size(), 3);
            for (Object o : alone.subList(0, shown)) {
                if (o instanceof Map<?, ?> m && m.get("rate_min_gbps") instanceof Number lo
                        && m.get("rate_max_gbps") instanceof Number hi && m.get("link_gbps") instanceof Number link
                        && m.get("link_utilisation") instanceof Number used
                        && m.get("rate_held_share") instanceof Number share
                        && m.get("path_utilisation_max") instanceof Number path
                        && m.get("notifications") instanceof Number cnps) {
                    String low = String.format(Locale.ROOT, "%.1f", lo.doubleValue());
                    String high = String.format(Locale.ROOT, "%.1f", hi.doubleValue());
                    items.add("<li class='err'><b>A last flow held back by its congestion control</b>: flow "
                            + text(m.get("flow")) + " (" + Page.esc(text(m.get("sender"))) + "->"
                            + Page.esc(text(m.get("receiver"))) + "), the last into " + Page.esc(text(m.get("receiver")))
                            + ", alone there from " + text(m.get("from_us")) + " us to " + text(m.get("to_us"))
                            + " us: its congestion control allowed it " + (low.equals(high) ? low : low + "-" + high)
                            + " Gb/s of the link's " + String.format(Locale.ROOT, "%.1f", link.doubleValue()) + " Gb/s, with "
                            + (cnps.longValue() == 0 ? "no congestion notification" : Numbers.count(cnps.longValue(),
                                    "congestion notification", "congestion notifications"))
                            + " in that time, while " + Page.esc(text(m.get("link"))) + " carried "
                            + SummaryText.percent(used.doubleValue()) + " % of its capacity and no port on its path more"
                            + " than " + SummaryText.percent(path.doubleValue()) + " %; it spent "
                            + SummaryText.percent(share.doubleValue()) + " % of its life with data ready that its rate"
                            + " held back (rates.csv, links.csv, flows.csv rate_held_us, summary.json held_alone)</li>");
                }
            }
            if (alone.size() > shown) {
                items.add("<li>and " + (alone.size() - shown) + " more last flows held back alone (summary.json"
                        + " held_alone)</li>");
            }
        }
        // ECMP collisions (summary.json ecmp_collisions): told only when there were some.
        Object collisions = s.get("ecmp_collisions");
        int collided = size(collisions);
        if (collided > 0) {
            long all = collisionCount(s, collided);
            int shown = Numbers.shown(collided, MAX);
            items.add("<li class='err'><b>ECMP collisions</b>: at " + all + " port" + (all == 1 ? "" : "s")
                    + ", flows a switch had hashed onto a port queued there behind another flow's data while an"
                    + " equal-cost port was idle, " + EcmpLog.TOLD_WORDS + (shown < all ? " (the first " + shown + " listed below)"
                            : " (listed below)") + "</li>");
        }
        Object lintSkipped = d.manifest.get("lint_skipped");
        if (lintSkipped != null) {
            // Run without -q only helps where -q was the reason (a sweep's point is linted on its own).
            items.add("<li>rocelab lint did not run (" + Page.esc(String.valueOf(lintSkipped)) + "): <code>rocelab"
                    + " lint</code> the scenario" + ("--quiet".equals(lintSkipped) ? ", or run it without <code>-q</code>"
                            : " (this folder's scenario.yaml)") + "</li>");
        }
        p.html("<ul class='findings'>" + String.join("", items) + "</ul>");
        if (trees > 0) {
            p.html("<h3>Pause propagation tree</h3>");
            tree(p, (List<?>) tree, size(tree));
            p.note("for each device, port and priority that sent XOFF: when first, hop and root of that first XOFF (hop"
                    + " 0: the device's own egress was the congestion point, its root"
                    + (cycleRoots(tree) ? ", or is on the pause cycle that is its root (the pauses in force from it lead"
                            + " back to the device)" : "")
                    + "; n+1: that egress was held by an XOFF n hops from the root) and how long the peer stayed paused;"
                    + " summary.json pfc_propagation has them all");
        }
        if (collided > 0) {
            p.html("<h3>ECMP collisions</h3>");
            collisionTable(p, (List<?>) collisions, collisionCount(s, collided));
            p.note("each port where flows the switch had hashed there waited behind another flow's data while an"
                    + " equal-cost port was idle (a flow waited while at least one of its packets did; the last column"
                    + " sums the flows' waits); summary.json ecmp_collisions has them all, flows.csv ecmp_wait_us each"
                    + " flow's" + oneReceiverNote((List<?>) collisions));
        }
        for (String k : victimKeys) {
            Object v = s.get(k);
            if (size(v) == 0) {
                continue;
            }
            p.html("<h3>" + Page.esc(label(k)) + "</h3>");
            if (v instanceof List<?> l) {
                Object counted = s.get(k.endsWith("s") ? k.substring(0, k.length() - 1) + "_count" : k + "_count");
                tree(p, l, counted instanceof Number c ? c.longValue() : l.size());
            } else if (v instanceof Map<?, ?> m) {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    p.html("<h3>" + Page.esc(String.valueOf(e.getKey()).replace('_', ' ')) + "</h3>");
                    if (e.getValue() instanceof List<?> l) {
                        tree(p, l, l.size());
                    } else {
                        p.note(String.valueOf(e.getValue()));
                    }
                }
            }
            p.note(victimColumns(v) + "summary.json " + k + " has them all");
        }
    }

    /**
     * What a victims table's columns mean where a reader could take them for more than they are, if its rows have
     * them: {@code root} is one of the roots it waited behind, and its waits summed over hops are not the time it lost.
     */
    private static String victimColumns(Object v) {
        if (!(v instanceof List<?> l) || !(l.get(0) instanceof Map<?, ?> m)) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        if (m.containsKey("root_wait_us")) {
            b.append("root: the root off its way it waited behind most, root_wait_us its part of victim_wait_us;"
                    + " other_roots the rest, as the summary names them; ");
        }
        if (m.containsKey("lost_us")) {
            b.append("lost_us: how much later it finished than on an idle fabric (flows.csv fct_us - ideal_fct_us),"
                    + " which its waits summed over hops can exceed; ");
        }
        return b.toString();
    }

    /**
     * What a run of a model without packets cannot find, told instead of their absence: {@code flow level (--model
     * flow): PFC pauses, deadlocks and victims are not modelled, ...}.
     */
    static String notShown(ReportData d) {
        String holds = d.infiniband() ? "waits for InfiniBand credits" : "PFC pauses";
        return switch (d.model()) {
            case "flow" -> "flow level (--model flow): " + holds + ", deadlocks and victims are not modelled, nor the"
                    + " queues where flows wait behind an ECMP collision (flows hashed onto one link share it), so none"
                    + " is told here; --model packet has them";
            case "ideal" -> "ideal network (--ideal): a non-blocking fabric, where pauses, credit waits, deadlocks,"
                    + " victims and ECMP collisions are not modelled, so none is told here; --model packet has them";
            default -> "model " + d.model() + ": pauses, credit waits, deadlocks, victims and ECMP collisions are not"
                    + " modelled, so none is told here; --model packet has them";
        };
    }

    /**
     * "; " and {@link EcmpLog#oneReceiverNote} when every listed collision port's packets went to one receiver
     * (summary.json's {@code receiver}), else "".
     */
    private static String oneReceiverNote(List<?> collisions) {
        Set<String> receivers = new TreeSet<>();
        boolean starved = false;
        for (Object o : collisions) {
            if (!(o instanceof Map<?, ?> m) || !(m.get("receiver") instanceof String to)) {
                return "";
            }
            receivers.add(to);
            starved |= m.containsKey("buffer_full_drops_elsewhere");
        }
        return receivers.isEmpty() ? "" : "; " + EcmpLog.oneReceiverNote(receivers, starved);
    }

    /**
     * The collision ports of summary.json's {@code ecmp_collisions}, one row each: where, the idle equal-cost ports, how
     * many packets collided, and the flows that waited there with their waits (the first of them).
     */
    private static void collisionTable(Page p, List<?> list, long total) {
        List<List<String>> rows = new ArrayList<>();
        int listed = Numbers.shown(list.size(), MAX);
        for (Object o : list.subList(0, listed)) {
            if (!(o instanceof Map<?, ?> m)) {
                continue;
            }
            List<String> idle = new ArrayList<>();
            // Collisions that found an idle port the log did not keep: the first four kept are named and "another"
            // stands for the rest (two ports at least), as in the summary's line.
            long leftOut = m.get("idle_left_out_collisions") instanceof Number n ? n.longValue() : 0;
            if (m.get("idle_ports") instanceof List<?> ports) {
                for (Object i : ports.subList(0, EcmpLog.idleNamed(ports.size(), leftOut))) {
                    if (i instanceof Map<?, ?> x) {
                        idle.add("port " + text(x.get("port")) + " (towards " + x.get("towards") + ")");
                    }
                }
            }
            if (leftOut > 0) {
                idle.add("another");
            }
            List<String> flows = new ArrayList<>();
            Object count = m.get("flow_count");
            if (m.get("flows") instanceof List<?> fs) {
                // The first five, or all six when the sixth is the only one left (as the summary's line names them).
                int counted = count instanceof Number n ? (int) Math.min(Integer.MAX_VALUE, n.longValue()) : fs.size();
                int shown = Math.min(fs.size(), EcmpLog.named(counted, 5));
                for (Object f : fs.subList(0, shown)) {
                    if (f instanceof Map<?, ?> x) {
                        // What of the flow waited there: its last ACK alone (hashed on its way back), or both, as
                        // the summary's line names them.
                        String flow = "flow " + text(x.get("flow_id")) + " (h" + text(x.get("src")) + "->h"
                                + text(x.get("dst")) + ")";
                        String named = "last_ack".equals(x.get("packets")) ? "the last ACK of " + flow
                                : "data_and_last_ack".equals(x.get("packets")) ? flow + " (data and last ACK)" : flow;
                        flows.add(named + " " + text(x.get("ecmp_wait_us")) + " us");
                    }
                }
            }
            long all = count instanceof Number n ? n.longValue() : flows.size();
            if (all > flows.size()) {
                flows.add((all - flows.size()) + " more");
            }
            rows.add(List.of(String.valueOf(m.get("switch")), text(m.get("port")) + " (towards " + m.get("towards") + ")",
                    String.join(", ", idle), text(m.get("collisions")), String.join("; ", flows),
                    text(m.get("ecmp_wait_us"))));
        }
        p.table(List.of("switch", "port", "idle equal-cost ports", "collisions", "flows that waited there",
                "ecmp_wait_us (flows summed)"), rows, 0, 1, 2, 4);
        if (total > listed) {
            p.note("first " + listed + " of " + total);
        }
    }

    /** How many collision ports the run had: summary.json's count, else the list's length. */
    private static long collisionCount(Map<String, Object> s, int listed) {
        return s.get("ecmp_collision_count") instanceof Number c ? c.longValue() : listed;
    }

    /** A summary key as a heading: {@code pfc_victims} gives "PFC victims", {@code ib_victims} "IB victims". */
    private static String label(String key) {
        String words = key.replace('_', ' ').replace("pfc", "PFC");
        return words.startsWith("ib ") ? "IB" + words.substring(2) : words;
    }

    private static int size(Object v) {
        if (v instanceof List<?> l) {
            return l.size();
        }
        if (v instanceof Map<?, ?> m) {
            int n = 0;
            for (Object o : m.values()) {
                n += o instanceof List<?> l ? l.size() : 1;
            }
            return n;
        }
        return 0;
    }

    private static Object num(Object o) {
        return o instanceof Number n ? Integer.valueOf(n.intValue()) : o;
    }

    /**
     * A list of objects as a table, its columns the union of their keys (nested values as text): the first {@link #MAX}
     * of {@code total} (the list may hold only the first ones of them, as summary.json's victims do).
     */
    private static void tree(Page p, List<?> list, long total) {
        Set<String> cols = new LinkedHashSet<>();
        for (Object o : list) {
            if (o instanceof Map<?, ?> m) {
                for (Object k : m.keySet()) {
                    cols.add(String.valueOf(k));
                }
            }
        }
        List<List<String>> rows = new ArrayList<>();
        int listed = Numbers.shown(list.size(), MAX);
        for (Object o : list.subList(0, listed)) {
            List<String> r = new ArrayList<>();
            if (o instanceof Map<?, ?> m) {
                for (String c : cols) {
                    Object v = m.get(c);
                    r.add(v == null ? "" : v instanceof List<?> || v instanceof Map<?, ?> ? join(v) : text(v));
                }
            } else {
                r.add(String.valueOf(o));
            }
            rows.add(r);
        }
        p.table(cols.isEmpty() ? List.of("value") : new ArrayList<>(cols), rows);
        if (total > listed) {
            p.note("first " + listed + " of " + total);
        }
    }

    /** A value as summary.json shows it, whether the tree came from memory (BigDecimal) or from the file (Double). */
    static String text(Object v) {
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (d == Math.rint(d) && Math.abs(d) < 1e15) {
                return String.valueOf((long) d);
            }
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        }
        return String.valueOf(v);
    }

    /**
     * One lint finding of manifest.json, as HTML: severity and rule, its title, what is wrong, where (its ports, or its
     * devices) and the fix; a finding without them (an older manifest's) as severity, rule and title.
     */
    private static String lintLine(Object o) {
        if (!(o instanceof Map<?, ?> m)) {
            return Page.esc(String.valueOf(o));
        }
        StringBuilder b = new StringBuilder("<b>").append(Page.esc(m.get("severity") + " " + m.get("rule")))
                .append("</b> ").append(Page.esc(String.valueOf(m.get("title"))));
        if (m.get("what") != null) {
            b.append(": ").append(Page.esc(String.valueOf(m.get("what"))));
        }
        String where = shortList(m.get("ports"), 6);
        if (where.isEmpty()) {
            where = shortList(m.get("devices"), 12);
        }
        if (!where.isEmpty()) {
            b.append("; where: ").append(Page.esc(where));
        }
        if (m.get("fix") != null) {
            b.append("; fix: ").append(Page.esc(String.valueOf(m.get("fix"))));
        }
        return b.toString();
    }

    /**
     * The first {@code max} of a list, and how many more (as rocelab lint's text gives devices and ports); a single one
     * more is named.
     */
    private static String shortList(Object v, int max) {
        if (!(v instanceof List<?> l)) {
            return "";
        }
        List<String> items = l.stream().map(String::valueOf).toList();
        int shown = Numbers.shown(items.size(), max);
        return items.size() == shown ? String.join(", ", items)
                : String.join(", ", items.subList(0, shown)) + " and " + (items.size() - shown) + " more";
    }

    private static String join(Object o) {
        if (o instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object e : l) {
                parts.add(e instanceof Map<?, ?> || e instanceof List<?> ? join(e) : text(e));
            }
            return String.join("; ", parts);
        }
        if (o instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            // A null names nothing (a mark place not kept apart, not_apart=true, has no device or port): left out, not
            // printed as "device=null" (an audit, moe-alltoall's victims table).
            m.forEach((k, v) -> {
                if (v != null) {
                    parts.add(k + "=" + (v instanceof Map<?, ?> || v instanceof List<?> ? join(v) : text(v)));
                }
            });
            return String.join(", ", parts);
        }
        return String.valueOf(o);
    }

    /** Whether any link of the pause tree is rooted at a cycle of pauses (its root named {@code the pause cycle ...}). */
    private static boolean cycleRoots(Object tree) {
        return tree instanceof List<?> l && l.stream().anyMatch(e -> e instanceof Map<?, ?> m
                && String.valueOf(m.get("root")).startsWith("the pause cycle"));
    }

    /** Microseconds as summary.json has them (whole picoseconds at most), in picoseconds. */
    private static long ps(Object us) {
        return us instanceof Number n ? new BigDecimal(n.toString()).movePointRight(6).longValue() : -1;
    }

    /** A tier's ratio as summary.json gives it: {@code 2:1}, or {@code 1.5:1 to 2:1}. */
    private static String ratios(Map<?, ?> t) {
        String min = String.valueOf(t.get("ratio_min"));
        String max = String.valueOf(t.get("ratio_max"));
        return min.equals(max) ? max + ":1" : min + ":1 to " + max + ":1";
    }
}
