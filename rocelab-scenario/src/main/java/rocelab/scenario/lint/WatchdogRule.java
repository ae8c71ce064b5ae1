package rocelab.scenario.lint;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import rocelab.fabric.flowcontrol.PfcWatchdogParameters;
import rocelab.scenario.device.SwitchConfig;

/**
 * L12: every lossless switch needs a PFC watchdog with sane timers (SONiC: detection 100..5000 ms, restoration at
 * least the detection time, polling no slower than detection), or one stuck receiver can stall the fabric.
 */
final class WatchdogRule implements LintRule {
    private static final long MS = 1_000_000_000L;

    @Override
    public String id() {
        return "L12";
    }

    @Override
    public String title() {
        return "PFC watchdog missing or mis-set";
    }

    @Override
    public void check(LintContext c, Findings out) {
        if (!c.lossless()) {
            return;
        }
        Set<Integer> used = new LinkedHashSet<>();
        for (Queues.Queue q : Queues.egress(c)) {
            if (c.switchAt(q.switchIndex()).pfc().isLossless(q.tc())) {
                used.add(q.switchIndex());
            }
        }
        for (int i : used) {
            SwitchConfig s = c.switchAt(i);
            PfcWatchdogParameters wd = s.pfc().watchdog();
            if (!wd.enabled()) {
                out.add(this, Severity.WARNING, List.of(s.name()), List.of(), "lossless switches without a PFC"
                        + " watchdog", "a stuck receiver or a deadlock pauses the fabric for as long as it lasts"
                        + " (sustained tx_prio3_pause, pause duration near 100 %)",
                        "pfc: {watchdog: {detection: 200ms, restoration: 200ms, action: drop}} (SONiC defaults)");
                continue;
            }
            if (wd.restorationPs() < wd.detectionPs()) {
                out.add(this, Severity.WARNING, List.of(s.name()), List.of(), String.format(Locale.ROOT,
                        "watchdog restoration (%s) is shorter than detection (%s)", ms(wd.restorationPs()),
                        ms(wd.detectionPs())), "a storming queue flaps between stormed and restored",
                        "restoration >= detection (SONiC: restoration defaults to 2 x detection)");
            }
            if (wd.pollPs() > wd.detectionPs()) {
                out.add(this, Severity.WARNING, List.of(s.name()), List.of(), String.format(Locale.ROOT,
                        "watchdog poll (%s) is slower than detection (%s)", ms(wd.pollPs()), ms(wd.detectionPs())),
                        "storms are detected a poll interval late", "poll <= detection");
            }
            if (wd.detectionPs() < 100 * MS || wd.detectionPs() > 5000 * MS) {
                out.add(this, Severity.INFO, List.of(s.name()), List.of(), String.format(Locale.ROOT,
                        "watchdog detection %s is outside SONiC's accepted 100..5000 ms", ms(wd.detectionPs())),
                        wd.detectionPs() < 100 * MS ? "short timers also catch queues that are merely paused by"
                                + " spreading congestion: collateral drops" : "a storm stalls traffic for seconds",
                        "detection between 100 ms and 5 s");
            }
        }
    }

    private static String ms(long ps) {
        return String.format(Locale.ROOT, "%.3g ms", ps / 1e9);
    }
}
