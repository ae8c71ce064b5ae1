package rocelab.scenario.device;

import rocelab.congestion.CcSettings;
import rocelab.congestion.CongestionAlgorithm;
import rocelab.congestion.CongestionControls;
import rocelab.congestion.ecn.EcnMarkings;
import rocelab.fabric.congestion.EcnMarkingFactory;
import rocelab.fabric.network.DevicePlan;
import rocelab.fabric.nic.NotificationPointParameters;
import rocelab.fabric.packet.FrameFormat;

/** Turns the resolved per-device settings into the {@link DevicePlan} the network builder assembles from. */
public final class DevicePlans {
    private DevicePlans() {}

    /** Frame bytes around the IP packet: Ethernet header, 802.1Q tag if any, FCS. */
    public static int l2Overhead(boolean vlanTagged) {
        return FrameFormat.ETHERNET_HEADER + (vlanTagged ? FrameFormat.VLAN_TAG : 0) + FrameFormat.FCS;
    }

    public static DevicePlan of(Devices devices, boolean vlanTagged) {
        return of(devices, vlanTagged, false);
    }

    /**
     * @param infiniband the switches' MTUs are InfiniBand's: each port's largest payload (a frame limit otherwise:
     *     the IP MTU plus the Ethernet header, tag and FCS)
     */
    public static DevicePlan of(Devices devices, boolean vlanTagged, boolean infiniband) {
        int l2Overhead = infiniband ? 0 : l2Overhead(vlanTagged);
        return new DevicePlan() {
            @Override
            public SwitchSetup forSwitch(int switchIndex) {
                SwitchConfig s = devices.switchAt(switchIndex);
                EcnMarkingFactory[] marking = new EcnMarkingFactory[s.portCount()];
                int[] maxFrame = new int[s.portCount()];
                for (int p = 0; p < marking.length; p++) {
                    marking[p] = new EcnMarkings(s.ecn(p));
                    // The IP MTU limits the IP packet; the frame adds the Ethernet header (and tag) and the FCS. An
                    // InfiniBand MTU limits the payload itself.
                    maxFrame[p] = s.mtu(p) == 0 ? Integer.MAX_VALUE : s.mtu(p) + l2Overhead;
                }
                return new SwitchSetup(s.parameters(), s.pfc(), marking, s.headroomByPort(), maxFrame, infiniband);
            }

            @Override
            public NicSetup forNic(int host) {
                NicConfig n = devices.nic(host);
                CongestionAlgorithm algorithm = CongestionControls.byName(n.congestion().name()).orElseThrow();
                NotificationPointParameters np = algorithm.notificationPoint(n.congestion(), n.cnpDscp(),
                        n.cnpPriority());
                if (!n.notificationPoint()) {
                    np = new NotificationPointParameters(NotificationPointParameters.Mode.NONE, np.cnpIntervalPs(),
                            np.cnpDscp(), np.cnpPriority(), np.intervalPerPort());
                }
                CcSettings none = CcSettings.of("none");
                var cc = n.reactionPoint() ? algorithm.factory(n.congestion())
                        : CongestionControls.byName("none").orElseThrow().factory(none);
                return new NicSetup(n.parameters(), n.pfcMask(),
                        n.receivePriority(vlanTagged, n.parameters().dataPriority()), np, cc, n.receive());
            }
        };
    }
}
