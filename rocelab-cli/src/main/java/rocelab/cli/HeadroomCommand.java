package rocelab.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.packet.FrameFormat;
import rocelab.scenario.read.ScenarioReader;
import rocelab.scenario.read.UnitParser;

/** {@code rocelab headroom}: the PFC headroom a lossless priority needs on one link, with the formula shown. */
@Command(name = "headroom", mixinStandardHelpOptions = true,
        description = {"PFC headroom calculator: the bytes that still arrive on a lossless priority after XOFF.",
            "Same computation as a scenario's switch.pfc.headroom: auto and lint rule L3.",
            "All three use the delays the simulator applies: the cable both ways, the forwarding latency into each"
                + " switch and the peer's pause response.",
            "The link defaults to 1 us one way (about 198 m of fibre), a scenario link's default delay: give --cable"
                + " or --delay for yours."})
final class HeadroomCommand implements Callable<Integer> {
    @Option(names = "--speed", required = true, paramLabel = "RATE", description = "Link speed, e.g. 400Gbps.")
    String speed;

    @Option(names = "--cable", paramLabel = "LENGTH",
            description = "Cable length with its unit, m or km, up to 100km (light at 1.98e8 m/s: 1 us is about"
                    + " 198 m). Default: --delay 1us.")
    String cable;

    @Option(names = "--delay", paramLabel = "TIME",
            description = "The link's one-way delay instead of --cable, as a scenario's link delay (topology.link"
                    + ".delay, links[].delay), e.g. 500ns. Default: 1us, a scenario link's default, so that with"
                    + " neither option the result is what headroom: auto reserves on a default link (198 m of"
                    + " fibre: more than a 5 m DAC needs, never less).")
    String delay;

    @Option(names = "--mtu", defaultValue = "4096", paramLabel = "BYTES",
            description = "RoCE payload per packet (IB path MTU), e.g. 4096 (default: ${DEFAULT-VALUE}).")
    String mtu;

    @Option(names = "--vlan", description = "Frames carry an 802.1Q tag.")
    boolean vlan;

    @Option(names = "--forwarding-latency", defaultValue = "0", paramLabel = "TIME",
            description = "The switches' forwarding latency (switch.forwarding-latency), e.g. 2us (default: "
                    + "${DEFAULT-VALUE}).")
    String forwardingLatency;

    @Option(names = "--peer", defaultValue = "nic", paramLabel = "KIND",
            description = "What is at the other end of the link: nic, or switch (the PFC frame then also crosses"
                    + " the peer's forwarding latency) (default: ${DEFAULT-VALUE}).")
    String peer;

    @Option(names = "--response", defaultValue = "auto", paramLabel = "TIME",
            description = "The peer's pause response time (nic.pause-response, switch.pfc.pause-response): auto"
                    + " for IEEE 802.3 Annex 31B at the speed, or a time (default: ${DEFAULT-VALUE}).")
    String response;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** An option's value read by {@code parse}; a value it refuses is told with the option's name. */
    private static long parsed(String option, String value, ToLongFunction<String> parse) {
        try {
            return parse.applyAsLong(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + e.getMessage(), e);
        }
    }

    @Override
    public Integer call() {
        long rate;
        double meters;
        long payload;
        long latency;
        long responsePs;
        long cablePs;
        try {
            rate = parsed("--speed", speed, UnitParser::rateBps);
            payload = parsed("--mtu", mtu, UnitParser::bytes);
            if (cable != null && delay != null) {
                throw new IllegalArgumentException("--cable and --delay both give the link's length; expected one of"
                        + " them");
            }
            if (cable != null) {
                meters = meters(cable);
                cablePs = Headroom.cableDelayPs(meters);
            } else {
                cablePs = parsed("--delay", delay == null ? DEFAULT_DELAY : delay, UnitParser::timePs);
                meters = Headroom.cableMeters(cablePs);
                if (meters > MAX_CABLE_METERS) {
                    throw new IllegalArgumentException("--delay " + delay + " is out of range; expected a time up to"
                            + " 505us (100 km of cable)");
                }
            }
            latency = parsed("--forwarding-latency", forwardingLatency, UnitParser::timePs);
            responsePs = response.strip().equals("auto") ? -1 : parsed("--response", response, UnitParser::timePs);
            if (latency < 0 || responsePs < -1) {
                throw new IllegalArgumentException("--forwarding-latency and --response must not be negative");
            }
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (responsePs == -1 && rate < Headroom.SLOWEST_TABLE_BPS) {
            // The table stops at 10 Gb/s: its value for a slower link would be cited as the standard's, and is not.
            spec.commandLine().getErr().println("error: --speed " + speed + " is below 10 Gb/s, the slowest speed"
                    + " whose IEEE 802.3 Annex 31B pause response rocelab has; expected at least 10Gbps, or the peer's"
                    + " response time given as --response TIME");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
                if (payload < 64 || payload > 65_536) {
            spec.commandLine().getErr().println("error: --mtu " + mtu + " is out of range; expected 64..65536 bytes");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (!peer.equals("nic") && !peer.equals("switch")) {
            spec.commandLine().getErr().println("error: --peer " + peer + " is not a device kind; expected nic or"
                    + " switch");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        boolean peerIsSwitch = peer.equals("switch");
        FrameFormat frames = new FrameFormat(vlan);
        int frame = frames.dataFrameBytes((int) payload, true);
        int wire = frames.onWire(frame);
        PauseLoop loop = new PauseLoop(latency, responsePs, responsePs);
        String text;
        try {
            text = Headroom.explain(rate, loop.roundTripPs(cablePs, peerIsSwitch), loop.describe(cablePs,
                    peerIsSwitch), loop.responsePs(peerIsSwitch, rate), frame,
                    frames.framingBytes());
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        var out = spec.commandLine().getOut();
        out.printf("PFC headroom per lossless priority and port: %s Gb/s, %s, %d B payload (%d B frames,"
                + " %d B with preamble and gap)%n", Headroom.gbps(rate), link(cablePs, meters), payload, frame,
                wire);
        if (cable == null && delay == null) {
            out.printf("the link: %s one way, the default (a scenario link's default delay, so this is what headroom:"
                    + " auto reserves there); a 5 m DAC needs less: give --cable or --delay for your link%n",
                    DEFAULT_DELAY);
        }
        out.println();
        out.println(text);
        out.printf("%npause: 65535 quanta hold a priority for %.1f us at this speed%n",
                Headroom.pauseDurationPs(0xFFFF, rate) / 1e6);
        out.flush();
        return 0;
    }

    /**
     * The link as given, and what it assumes when nothing is given: the reader of a headroom figure must know the
     * cable it is for (an audit sized 400G uplinks with a calculator default of 5 m and a scenario default of 198 m).
     */
    private String link(long cablePs, double meters) {
        if (cable != null) {
            return String.format(Locale.ROOT, "%s cable (%s us one way)", cable, BigDecimal.valueOf(cablePs)
                    .movePointLeft(6).stripTrailingZeros().toPlainString());
        }
        return String.format(Locale.ROOT, "%s link delay (%s m of cable)", delay == null ? DEFAULT_DELAY : delay,
                new BigDecimal(meters).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString());
    }

    /** A scenario link's default delay (topology.link.delay), so that auto headroom and this agree by default. */
    static final String DEFAULT_DELAY = BigDecimal.valueOf(ScenarioReader.DEFAULT_LINK_DELAY_PS).movePointLeft(6)
            .stripTrailingZeros().toPlainString() + "us";

    /** The longest cable accepted: 100 km, beyond any lossless Ethernet deployment, and headroom stays exact. */
    static final double MAX_CABLE_METERS = 100_000;

    private static double meters(String text) {
        String t = text.strip();
        String expected = "expected a length with its unit, m or km, from 0 to 100km (e.g. 100m)";
        boolean km = t.endsWith("km");
        if (!km && !t.endsWith("m")) {
            Matcher m = Pattern.compile("([-+0-9.eE]+)\\s*([A-Za-z\"']+)").matcher(t);
            if (!m.matches()) {
                throw new IllegalArgumentException("--cable '" + text + "' has no unit; " + expected);
            }
            String unit = m.group(2);
            String hint = "";
            if (unit.equalsIgnoreCase("ft") || unit.equals("'") || unit.equalsIgnoreCase("feet")) {
                try {
                    hint = String.format(Locale.ROOT, " (%s ft is %sm)", m.group(1),
                            new BigDecimal(m.group(1)).multiply(new BigDecimal("0.3048"))
                                    .stripTrailingZeros().toPlainString());
                } catch (NumberFormatException e) {
                    // not a number: the unit alone is named
                }
            }
            throw new IllegalArgumentException("--cable '" + text + "': the unit '" + unit + "' is not known; "
                    + expected + hint);
        }
        String number = t.substring(0, t.length() - (km ? 2 : 1)).strip();
        double v;
        try {
            v = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--cable '" + text + "' is not a length; " + expected);
        }
        double meters = km ? v * 1000 : v;
        if (!(meters >= 0 && meters <= MAX_CABLE_METERS)) {
            throw new IllegalArgumentException("--cable '" + text + "' is out of range; " + expected);
        }
        return meters;
    }
}
