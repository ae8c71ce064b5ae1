package rocelab.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionControls;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.congestion.ibcc.FecnParameters;
import rocelab.congestion.ibcc.IbCcAlgorithm;
import rocelab.fabric.flowcontrol.PfcParameters;
import rocelab.fabric.flowcontrol.credit.InfinibandParameters;
import rocelab.fabric.network.NetworkBuilder;
import rocelab.fabric.network.PauseLoop;
import rocelab.fabric.packet.FrameFormat;
import rocelab.fabric.topology.Topology;
import rocelab.scenario.device.Devices;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;

/**
 * The same scenario on another fabric, for {@code rocelab compare}: topology, devices, workload, seed and stop
 * time stay; what belongs to a fabric follows it. Into roce-lossless: the scenario's PFC settings or the defaults;
 * into roce-lossy: no PFC; into infiniband: the scenario's {@code fabric.infiniband} or the defaults, no VLAN tag.
 * Congestion control keeps its role: a RoCE control becomes ib-cc on InfiniBand (with FECN marking at the
 * defaults), ib-cc becomes dcqcn on RoCE (profile hpcc-ns3, as the lossless-dcqcn example, with the default ECN
 * marking), and none stays none.
 */
public final class FabricVariants {
    private FabricVariants() {}

    /** Why a scenario cannot run on another fabric, and the scenario key ({@code fabric.mtu}) that stops it. */
    public static final class Refusal extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String key;

        Refusal(String key, String detail) {
            super(detail);
            this.key = key;
        }

        /** The key's path in the scenario file, dotted: where the refusal is told. */
        public String key() {
            return key;
        }
    }

    /** A congestion control as compare names it: the algorithm and its profile (null when it has none). */
    public record Control(String name, String profile) {
        @Override
        public String toString() {
            return profile == null ? name : name + " (" + profile + ")";
        }
    }

    /**
     * The congestion controls a scenario's RNICs run, each with the profile it runs (the algorithm's default when the
     * scenario names none), in host order of first use: one, unless devices set their own.
     */
    public static List<Control> controls(ScenarioConfig c) {
        List<Control> out = new ArrayList<>();
        List<CcSettings> settings = new ArrayList<>();
        for (NicConfig n : c.devices().nics()) {
            settings.add(n.congestion());
        }
        if (settings.isEmpty()) {
            settings.add(c.congestion());
        }
        for (CcSettings cc : settings) {
            String profile = cc.profile() != null ? cc.profile()
                    : CongestionControls.byName(cc.name()).map(a -> a.defaultProfile()).orElse(null);
            Control k = new Control(cc.name(), profile);
            if (!out.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }

    /**
     * Why {@code variant} (the scenario {@code base} in another mode) runs other congestion controls than the
     * scenario's, or null when it runs the scenario's own: a RoCE control has no ECN/CNP to read on InfiniBand, nor
     * ib-cc FECN/BECN on RoCE, so compare gives the fabric the control of the same role.
     */
    public static String substitution(ScenarioConfig base, ScenarioConfig variant) {
        if (controls(base).equals(controls(variant))) {
            return null;
        }
        return variant.mode() == FabricMode.INFINIBAND
                ? "InfiniBand has no ECN marking or CNPs for it to read; ib-cc (FECN marking and BECNs) takes its"
                        + " role, at this simulator's defaults (docs/congestion-control.md)"
                : "RoCE has no FECN or BECNs for it to read; dcqcn (hpcc-ns3) with the default ECN marking takes its"
                        + " role";
    }

    /**
     * What buffers the switches and RNICs of {@code variant} have, in a few words: the switches' shared buffer on RoCE,
     * the input buffers per port and lane and the HCAs' on InfiniBand, and whose values they are when the scenario
     * ({@code base}) states another fabric. The fabrics' buffers are not one measure (a shared pool against a fixed
     * share per port and lane), and one fabric's defaults can be far from the other's (32 MB against 64 KiB per
     * port), so compare says what each row had.
     */
    public static String buffers(ScenarioConfig base, ScenarioConfig variant) {
        if (variant.mode() == FabricMode.INFINIBAND) {
            InfinibandParameters p = variant.infiniband().fabric();
            return String.format(Locale.ROOT, "%,d B per switch input port and lane, %,d B per HCA lane", p.vlBufferBytes(),
                    p.hcaBufferBytes()) + (base.mode() == FabricMode.INFINIBAND ? ""
                            : " (fabric.infiniband's defaults, which a " + base.mode().key() + " scenario cannot state)");
        }
        long least = variant.switches().bufferBytes();
        long most = least;
        if (!variant.devices().switches().isEmpty()) {
            least = Long.MAX_VALUE;
            most = 0;
            for (SwitchConfig sw : variant.devices().switches()) {
                least = Math.min(least, sw.parameters().bufferBytes());
                most = Math.max(most, sw.parameters().bufferBytes());
            }
        }
        return (least == most ? String.format(Locale.ROOT, "%,d B", least)
                : String.format(Locale.ROOT, "%,d to %,d B", least, most)) + " shared by the ports of each switch"
                + (base.mode() == FabricMode.INFINIBAND ? " (switch.buffer's default, which an infiniband scenario"
                        + " cannot state)" : "");
    }

    /** The scenario in {@code mode}; the scenario itself when it is already that mode. */
    public static ScenarioConfig inMode(ScenarioConfig c, FabricMode mode) {
        if (c.mode() == mode) {
            return c;
        }
        if (!c.faults().isEmpty()) {
            throw new Refusal("faults", "the scenario injects pause storms, which exist only in roce-lossless;"
                    + " expected no faults to compare fabrics");
        }
        boolean reacts = !c.congestion().name().equals("none");
        boolean fromIb = c.mode() == FabricMode.INFINIBAND;
        CcSettings cc;
        PfcParameters pfc = PfcParameters.off();
        EcnParameters ecn = c.ecn();
        InfinibandSettings ib = null;
        boolean vlan = c.vlanTagged();
        if (mode == FabricMode.INFINIBAND) {
            if (c.nic().mtuBytes() > 4096) {
                throw new Refusal("fabric.mtu", "its mtu of " + c.nic().mtuBytes() + " bytes is above the largest"
                        + " InfiniBand path MTU (4096 bytes); expected an mtu of at most 4096 bytes, or --modes without"
                        + " infiniband");
            }
            // An RNIC's own MTU above it too (an InfiniBand file refuses it as the reader reads). A switch's is
            // converted (see switchMtu): an IP MTU of 9100 carries what InfiniBand's 4096 carries.
            for (var n : c.devices().nics()) {
                if (n.parameters().mtuBytes() > 4096) {
                    throw new Refusal("nics", "h" + n.host() + "'s RNIC has an mtu of " + n.parameters().mtuBytes()
                            + " bytes, above the largest InfiniBand path MTU (4096 bytes); expected an mtu of at most"
                            + " 4096 bytes, or --modes without infiniband");
                }
            }
            cc = CcSettings.of(reacts ? IbCcAlgorithm.NAME : "none");
            ib = new InfinibandSettings(InfinibandParameters.defaults(), reacts ? FecnParameters.defaults() : null, 0);
            vlan = false;
        } else {
            cc = !fromIb ? c.congestion() : reacts ? new CcSettings("dcqcn", "hpcc-ns3", Map.of())
                    : CcSettings.of("none");
            if (fromIb) {
                ecn = reacts ? EcnParameters.defaults() : EcnParameters.none();
            }
            if (mode == FabricMode.ROCE_LOSSLESS) {
                pfc = c.pfc().enabled() ? c.pfc() : PfcParameters.defaults();
            }
        }
        String canonical = c.canonicalText() + "compare: mode=" + mode.key() + " cc=" + cc + " pfc=" + pfc + " ecn="
                + ecn + " ib=" + ib + " vlan=" + vlan + "\n";
        // From RoCE to RoCE every RNIC keeps its own control (a device's own cc is no fabric's).
        boolean keepControls = !fromIb && mode != FabricMode.INFINIBAND;
        // On InfiniBand every data packet may carry FECN (nic.ecn is RoCE's, an error in an InfiniBand file): a RoCE
        // scenario's ecn: false would have left ib-cc, said to take DCQCN's role, with no mark to react to.
        boolean toIb = mode == FabricMode.INFINIBAND;
        return new ScenarioConfig(c.name(), c.seed(), mode, vlan, c.topology(), c.switches(), pfc, ecn,
                toIb ? c.nic().withEcnCapable(true) : c.nic(),
                c.receive(), cc, c.cnpDscp(), c.cnpPriority(), c.traffic(), c.faults(), c.linkEvents(), c.stopAtPs(),
                c.sampleIntervalPs(), c.source(), canonical, c.jobs(), c.nvlink(), c.inference(),
                devices(c, pfc, vlan, fromIb || toIb ? ecn : null, keepControls ? null : cc, fromIb, toIb),
                ib, c.flowsOutput());
    }

    /**
     * A buffer too small for the headroom PFC reserves on the lossless fabric is refused at {@code switch.buffer}, as
     * the reader refuses it in a roce-lossless file (the fabric's own refusal named no key and expected nothing:
     * "PFC headroom (263550 B in all) leaves no shared buffer of 200000 B").
     */
    private static void refuseHeadroomAboveBuffer(SwitchConfig sw, long[] headroom, PfcParameters pfc) {
        int lossless = Integer.bitCount(pfc.losslessMask());
        long reserved = 0;
        long largest = 0;
        for (long h : headroom) {
            reserved += h * lossless;
            largest = Math.max(largest, h);
        }
        long buffer = sw.parameters().bufferBytes();
        if (pfc.enabled() && reserved >= buffer) {
            throw new Refusal("switch.buffer", String.format(Locale.ROOT, "the switch buffer (%,d B) is too small for"
                    + " the PFC headroom that %s reserves on roce-lossless (%,d B: %d ports x %d lossless %s, up to"
                    + " %,d B each); expected a larger switch.buffer, or --modes without roce-lossless", buffer,
                    sw.name(), reserved, headroom.length, lossless, lossless == 1 ? "priority" : "priorities",
                    largest));
        }
    }

    /** Headers a RoCE packet carries inside its IP MTU at most (IPv4, UDP, BTH, RETH, ICRC): 60 bytes. */
    private static final int ROCE_IP_OVERHEAD = FrameFormat.IPV4_HEADER + FrameFormat.UDP_HEADER + FrameFormat.BTH
            + FrameFormat.RETH + FrameFormat.ICRC;
    private static final int[] IB_MTUS = {4096, 2048, 1024, 512, 256};

    /**
     * A switch port's MTU on the other fabric, the payload it lets through kept: a RoCE MTU limits the IP packet, an
     * InfiniBand MTU the payload. Into InfiniBand, the largest InfiniBand MTU whose payload the IP MTU carries in
     * every RoCE packet (9100 or 4156: 4096; 1500: 1024); out of it, the IP MTU of a RoCE packet with that payload
     * (2048: 2108). Kept as it stood, an InfiniBand 2048 dropped every full-size RoCE packet of 2,108 bytes, and a
     * RoCE 9100 was refused. 0 (no limit) stays.
     */
    static int switchMtu(int mtu, boolean toIb) {
        if (mtu == 0) {
            return 0;
        }
        if (!toIb) {
            return mtu + ROCE_IP_OVERHEAD;
        }
        for (int ib : IB_MTUS) {
            if (ib <= mtu - ROCE_IP_OVERHEAD) {
                return ib;
            }
        }
        return IB_MTUS[IB_MTUS.length - 1];
    }

    /**
     * The per-device settings of {@code c} on the other fabric: every switch takes the fabric's PFC (headroom
     * computed per port again, as the reader computes it for a scenario that states this fabric) and, when the
     * marking changes with the fabric, its ECN; every RNIC its PFC priorities and the fabric's congestion control
     * ({@code cc}; null: each keeps its own), and on InfiniBand ({@code toIb}) its data markable. Everything else a
     * device was given stays.
     */
    private static Devices devices(ScenarioConfig c, PfcParameters pfc, boolean vlan,
            EcnParameters ecn, CcSettings cc, boolean fromIb, boolean toIb) {
        Devices d = c.devices();
        // The headroom in bytes, not "auto": the lint reads a switch's headroom from here (an unset -1 read as
        // "reserves -1 B of headroom", an L3 error on every port of a lossy scenario compared lossless), and these
        // are the values the fabric computes for the variant (NetworkBuilder: the RNICs' MTU, the pause loop).
        Topology topology = d.switches().isEmpty() ? null : c.topology().build();
        PauseLoop loop = new PauseLoop(c.switches().forwardingLatencyPs(), pfc.pauseResponsePs(),
                c.nic().pauseResponsePs());
        List<SwitchConfig> switches = new ArrayList<>();
        for (var sw : d.switches()) {
            long[] headroom = NetworkBuilder.headroomPerPort(topology, sw.node(), pfc, new FrameFormat(vlan),
                    c.nic().mtuBytes(), loop);
            refuseHeadroomAboveBuffer(sw, headroom, pfc);
            EcnParameters[] marking = sw.ecnByPort();
            if (ecn != null) {
                Arrays.fill(marking, ecn);
            }
            int[] mtu = sw.mtuByPort();
            if (fromIb != toIb) {
                for (int p = 0; p < mtu.length; p++) {
                    mtu[p] = switchMtu(mtu[p], toIb);
                }
            }
            switches.add(new SwitchConfig(sw.node(), sw.name(), sw.parameters(), pfc, marking,
                    headroom, mtu, sw.overridden()));
        }
        List<NicConfig> nics = new ArrayList<>();
        for (var n : d.nics()) {
            nics.add(new NicConfig(n.host(), toIb ? n.parameters().withEcnCapable(true) : n.parameters(), n.trust(),
                    n.dscpToPriority(),
                    pfc.losslessMask(), cc != null ? cc : n.congestion(), n.notificationPoint(), n.reactionPoint(), n.cnpDscp(), n.cnpPriority(),
                    n.receive()));
        }
        return new Devices(switches, nics, d.importNotes());
    }
}
