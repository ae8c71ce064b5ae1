package rocelab.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rocelab.fabric.flowcontrol.Headroom;
import rocelab.fabric.packet.FrameFormat;
import rocelab.scenario.read.UnitParser;

/** {@code rocelab headroom}: the PFC headroom a lossless priority needs on one link, with the formula shown. */
@Command(name = "headroom", mixinStandardHelpOptions = true,
        description = {"PFC headroom calculator: the bytes that still arrive on a lossless priority after XOFF.",
            "Same computation as a scenario's switch.pfc.headroom: auto."})
final class HeadroomCommand implements Callable<Integer> {
    @Option(names = "--speed", required = true, paramLabel = "RATE", description = "Link speed, e.g. 400Gbps.")
    String speed;

    @Option(names = "--cable", defaultValue = "5m", paramLabel = "LENGTH",
            description = "Cable length with its unit, m or km, up to 100km (default: ${DEFAULT-VALUE}).")
    String cable;

    @Option(names = "--mtu", defaultValue = "4096", paramLabel = "BYTES",
            description = "RoCE payload per packet (IB path MTU), e.g. 4096 (default: ${DEFAULT-VALUE}).")
    String mtu;

    @Option(names = "--vlan", description = "Frames carry an 802.1Q tag.")
    boolean vlan;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        long rate;
        double meters;
        long payload;
        try {
            rate = UnitParser.rateBps(speed);
            payload = UnitParser.bytes(mtu);
            meters = meters(cable);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        if (payload < 64 || payload > 65_536) {
            spec.commandLine().getErr().println("error: --mtu " + mtu + " is out of range; expected 64..65536 bytes");
            return RocelabCommand.EXIT_BAD_INPUT;
        }
        int frame = new FrameFormat(vlan).dataFrameBytes((int) payload, true);
        var out = spec.commandLine().getOut();
        out.printf("PFC headroom per lossless priority and port: %.0f Gb/s, %s cable, %d B payload (%d B frames)%n%n",
                rate / 1e9, cable, payload, frame);
        out.println(Headroom.explain(rate, meters, frame));
        out.printf("%npause: 65535 quanta hold a priority for %.1f us at this speed%n",
                Headroom.pauseDurationPs(0xFFFF, rate) / 1e6);
        out.flush();
        return 0;
    }

    /** The longest cable accepted: 100 km, beyond any lossless Ethernet deployment, and headroom stays exact. */
    static final double MAX_CABLE_METERS = 100_000;

    private static double meters(String text) {
        String t = text.strip();
        String expected = "expected a length with its unit, m or km, from 0 to 100km (e.g. 100m)";
        boolean km = t.endsWith("km");
        if (!km && !t.endsWith("m")) {
            throw new IllegalArgumentException("--cable '" + text + "' has no unit; " + expected);
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
