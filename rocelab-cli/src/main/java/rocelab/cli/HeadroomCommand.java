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
            description = "Cable length in meters, e.g. 100m (default: ${DEFAULT-VALUE}).")
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

    private static double meters(String text) {
        String t = text.strip();
        String number = t.endsWith("km") ? t.substring(0, t.length() - 2) : t.endsWith("m") ? t.substring(0,
                t.length() - 1) : t;
        double v;
        try {
            v = Double.parseDouble(number.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--cable '" + text + "' is not a length; expected meters, e.g. 100m");
        }
        if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("--cable '" + text + "' is not a length; expected meters >= 0");
        }
        return t.endsWith("km") ? v * 1000 : v;
    }
}
