// SPDX-License-Identifier: GPL-3.0-or-later
// The NUMA controls offer only what can apply: remote binding and placement greyed out on a
// one-node machine and available on two, a loaded topology only with the emulated device, the pin
// thread's binding only where there is a pin thread; CPU lists are checked before the engine sees
// them; a loaded topology's GPUs can be chosen; every NUMA field round-trips through the panel.
#include <QComboBox>
#include <QLineEdit>
#include <QStandardItemModel>
#include <QTest>

#include "tests/ui/NumaFixtures.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/NumaControls.h"

using namespace pinscope;
using ui::HostLane;

namespace {

bool item_enabled(QComboBox* combo, int index) {
    return qobject_cast<QStandardItemModel*>(combo->model())->item(index)->isEnabled();
}
QString item_tip(QComboBox* combo, int index) { return combo->itemData(index, Qt::ToolTipRole).toString(); }

constexpr int kRemote = 2, kInterleave = 3, kCpuList = 3;

// A fixture as if hwloc had read it from this machine.
std::shared_ptr<const MachineTopology> as_this_machine(const std::shared_ptr<const MachineTopology>& t) {
    MachineTopology copy = *t;
    copy.from_file = false;
    copy.source = "this machine";
    return std::make_shared<const MachineTopology>(std::move(copy));
}

}  // namespace

class NumaControlsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::prepare_application(); }

    void remoteIsGreyedOutOnOneNodeAndOfferedOnTwo() {
        ui::NumaControls controls;
        const LoaderConfig config = test::live_config();
        controls.show_config(config);
        controls.set_run_topology(test::laptop_topology());
        controls.update_applicability(config);
        QCOMPARE(controls.node_count(), 1);
        for (HostLane lane : {HostLane::Workers, HostLane::PinThread, HostLane::Consumer}) {
            QVERIFY(!item_enabled(controls.bind_policy(lane), kRemote));
            QVERIFY(item_enabled(controls.bind_policy(lane), 1));  // GPU-local still applies
        }
        QVERIFY(!item_enabled(controls.membind(), kRemote));
        QVERIFY(!item_enabled(controls.membind(), kInterleave));
        QVERIFY2(item_tip(controls.membind(), kRemote).contains(QStringLiteral("one NUMA node")),
                 qPrintable(item_tip(controls.membind(), kRemote)));

        controls.set_run_topology(as_this_machine(test::two_socket_topology()));
        controls.update_applicability(config);
        QCOMPARE(controls.node_count(), 2);
        QVERIFY(item_enabled(controls.bind_policy(HostLane::PinThread), kRemote));
        QVERIFY(item_enabled(controls.membind(), kRemote));
        QVERIFY(item_enabled(controls.membind(), kInterleave));
        QVERIFY(!item_tip(controls.membind(), kRemote).contains(QStringLiteral("one NUMA node")));
    }

    void aRunOfAnotherTopologySaysNothingAboutTheSelectedOne() {
        ui::NumaControls controls;
        LoaderConfig config = test::live_config();
        config.topology_xml = "2-socket-2-gpu";
        controls.show_config(config);
        controls.set_run_topology(test::laptop_topology());  // this machine's, not the file's
        controls.update_applicability(config);
        QCOMPARE(controls.node_count(), -1);
        QVERIFY(item_enabled(controls.membind(), kRemote));
        controls.set_run_topology(test::two_socket_topology());
        QCOMPARE(controls.node_count(), 2);
        MachineTopology shipped = *test::two_socket_topology();  // as the engine names a shipped one
        shipped.source = "2-socket-2-gpu (shipped sample)";
        controls.set_run_topology(std::make_shared<const MachineTopology>(shipped));
        QCOMPARE(controls.node_count(), 2);
        shipped.source = "/elsewhere/4-gpu-server.xml";
        controls.set_run_topology(std::make_shared<const MachineTopology>(shipped));
        QCOMPARE(controls.node_count(), -1);
    }

    void aLoadedTopologyOffersItsGpus() {
        ui::NumaControls controls;
        LoaderConfig config = test::live_config();
        config.topology_xml = "2-socket-2-gpu";
        controls.show_config(config);
        controls.update_applicability(config);
        QVERIFY(controls.gpu()->isEnabled());  // its GPUs are not known yet, but it may have several
        controls.set_run_topology(test::two_socket_topology());
        controls.update_applicability(config);
        QCOMPARE(controls.gpu()->count(), 3);  // the first GPU, then both by bus id
        QVERIFY(controls.gpu()->itemText(2).contains(QStringLiteral("0000:c1:00.0 · NVIDIA H200 · node 1")));
        controls.gpu()->setCurrentIndex(2);
        LoaderConfig written;
        controls.write_to(written);
        QCOMPARE(written.topology_xml, std::string("2-socket-2-gpu"));
        QCOMPARE(written.gpu_pci_bus_id, std::string(test::kGpuOnSocket1));

        config.topology_xml.clear();  // this machine: the device is the GPU
        controls.show_config(config);
        controls.update_applicability(config);
        QVERIFY(!controls.gpu()->isEnabled());
        controls.write_to(written);
        QVERIFY(written.gpu_pci_bus_id.empty());
    }

    void aRealGpuRunsOnThisMachinesTopology() {
        ui::NumaControls controls;
        LoaderConfig config = test::live_config();
        config.topology_xml = "4-gpu-server";
        controls.show_config(config);
        config.device = "cuda:0";
        controls.update_applicability(config);
        QVERIFY(!controls.topology()->isEnabled());
        QVERIFY(controls.topology()->toolTip().contains(QStringLiteral("needs the emulated device")));
        LoaderConfig written;
        controls.write_to(written);
        QVERIFY(written.topology_xml.empty());
        config.device = "emulated";
        controls.update_applicability(config);
        QVERIFY(controls.topology()->isEnabled());
    }

    void bindingsThatCannotApplyAreGreyedOut() {
        ui::NumaControls controls;
        LoaderConfig config = test::live_config(true, 4);
        controls.show_config(config);
        controls.update_applicability(config);
        QVERIFY(controls.bind_policy(HostLane::PinThread)->isEnabled());
        QVERIFY(controls.membind()->isEnabled());
        config.pin_mode = PinMode::Worker;  // workers pin: there is no pin thread
        controls.update_applicability(config);
        QVERIFY(!controls.bind_policy(HostLane::PinThread)->isEnabled());
        QVERIFY(controls.bind_policy(HostLane::Workers)->isEnabled());
        config = test::live_config(false, 0);
        controls.update_applicability(config);
        QVERIFY(!controls.bind_policy(HostLane::Workers)->isEnabled());
        QVERIFY(!controls.membind()->isEnabled());
        QVERIFY(controls.bind_policy(HostLane::Consumer)->isEnabled());
    }

    void cpuListsAreCheckedBeforeTheEngineSeesThem() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config());
        panel.set_run_topology(as_this_machine(test::two_socket_topology()));
        ui::NumaControls& numa = panel.numa();
        numa.bind_policy(HostLane::Workers)->setCurrentIndex(kCpuList);
        QVERIFY(numa.bind_cpus(HostLane::Workers)->isVisibleTo(&numa));
        QTest::keyClicks(numa.bind_cpus(HostLane::Workers), QStringLiteral("0-3,x"));
        QVERIFY(!panel.valid());
        QVERIFY2(panel.issue_text().contains(QStringLiteral("bind_workers: “0-3,x” is not a CPU list")), qPrintable(panel.issue_text()));
        numa.bind_cpus(HostLane::Workers)->clear();
        QTest::keyClicks(numa.bind_cpus(HostLane::Workers), QStringLiteral("0-3,200"));
        QVERIFY(!panel.valid());
        QVERIFY2(panel.issue_text().contains(QStringLiteral("CPU 200 does not exist on this machine")), qPrintable(panel.issue_text()));
        numa.bind_cpus(HostLane::Workers)->clear();
        QTest::keyClicks(numa.bind_cpus(HostLane::Workers), QStringLiteral("0-3,8"));
        QVERIFY2(panel.valid(), qPrintable(panel.issue_text()));
        const CpuBinding expected{CpuBindPolicy::CpuList, {0, 1, 2, 3, 8}};
        QCOMPARE(panel.config().bind_workers, expected);
    }

    void remotePlacementOnOneNodeIsExplainedAndNotApplied() {
        ui::ControlPanel panel;
        panel.set_run_topology(test::laptop_topology());
        LoaderConfig config = test::live_config();
        config.membind = MemoryPlacement::Interleave;
        panel.set_config(config);
        QVERIFY(!panel.valid());
        QVERIFY2(panel.issue_text().contains(QStringLiteral("interleave needs a second NUMA node")), qPrintable(panel.issue_text()));
    }

    void everyNumaFieldRoundTrips() {
        ui::ControlPanel panel;
        LoaderConfig config = test::live_config();
        config.bind_workers = {CpuBindPolicy::CpuList, {0, 2, 4, 5, 6}};
        config.bind_pin_thread = {CpuBindPolicy::Remote, {}};
        config.bind_consumer = {CpuBindPolicy::GpuLocal, {}};
        config.membind = MemoryPlacement::Remote;
        config.topology_xml = "/tmp/machines/dgx.xml";
        config.gpu_pci_bus_id = "0000:86:00.0";
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
        QVERIFY(panel.numa().topology()->currentText() == QStringLiteral("dgx.xml"));
        config.topology_xml = "4-gpu-server";
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
        QCOMPARE(panel.numa().topology()->currentText(), QStringLiteral("4-gpu-server (sample)"));
    }
};

PINSCOPE_UI_SUITE(NumaControlsTest)
#include "NumaControlsTest.moc"
