// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration panel follows PyTorch's rules as the engine states them: no prefetch_factor
// without workers, a run that lasts until Stop, edits announced once after a pause, and every
// field round-trips. A refused edit is said at the top, in view, and the controls go back to what
// is in effect; the wheel changes only the control that has the focus, else it scrolls the panel.
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextDocument>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include "engine/config/ConfigFields.h"
#include "engine/config/ConfigValidation.h"
#include "engine/device/HardwareProfile.h"
#include "engine/device/ProfileTrust.h"
#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/controls/ControlPanel.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/controls/FieldControls.h"
#include "ui/controls/FieldMarks.h"
#include "ui/controls/NumaControls.h"
#include "ui/controls/WheelGuard.h"

using namespace pinscope;

namespace {

// What a control shows, whatever its kind.
QString value_of(const QWidget* control) {
    if (const auto* combo = qobject_cast<const QComboBox*>(control)) return combo->currentText();
    if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(control)) return spin->text();
    if (const auto* slider = qobject_cast<const QAbstractSlider*>(control)) return QString::number(slider->value());
    return {};
}

// Eight workers, prefetch 6, pool, batches of 4.8 MB in 8 MiB blocks: 51 blocks fit a budget of
// 512 MiB; with prefetch 12, 99 blocks do not.
LoaderConfig eight_workers_prefetch_six() {
    LoaderConfig config = test::live_config(true, 8);
    config.batch_size = 8;
    config.prefetch_factor = 6;
    config.pin_mode = PinMode::Pool;
    config.pinned_budget_bytes = 512u << 20;
    return config;
}

// Whether all of `widget` shows in the panel's scroll area, not under the message above it.
bool in_view(ui::ControlPanel& panel, QWidget* widget) {
    QWidget* viewport = panel.scroll_area()->viewport();
    const QRect rect(widget->mapTo(viewport, QPoint(0, 0)), widget->size());
    return viewport->rect().contains(rect);
}

void type_into(QAbstractSpinBox* spin, const QString& text) {
    spin->selectAll();
    QTest::keyClicks(spin, text);
}

// The panel as the window uses it: what it announces is applied and shown as in effect.
void accept_every_edit(ui::ControlPanel& panel) {
    QObject::connect(&panel, &ui::ControlPanel::configEdited, &panel, &ui::ControlPanel::set_config);
}

}  // namespace

class ControlPanelTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { test::prepare_application(); }

    void showsAndReturnsEveryField() {
        ui::ControlPanel panel;
        LoaderConfig config = test::live_config(false, 6);
        config.prefetch_factor = 3;
        config.batch_size = 32;
        config.sample_shape = {3, 64, 64};
        config.dtype = DType::F16;
        config.pin_mode = PinMode::Register;
        config.non_blocking = false;
        config.in_order = false;
        config.cpu_us_per_sample = 125.5;
        config.gpu_us_per_batch = 4000;
        config.host = HostMode::Real;
        config.pinned_budget_bytes = 512u << 20;
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
        config.seconds = 12.5;
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
        config.seconds.reset();
        config.batches = 1000;
        panel.set_config(config);
        QCOMPARE(panel.config(), config);
    }

    // Every field has a control tagged with its key; their tooltips, ranges, units and items are
    // the field table's.
    void theControlsSayWhatTheFieldTableSays() {
        using ui::to_qstring;
        ui::ControlPanel panel;
        int ranges = 0;
        for (const ConfigField& field : kConfigFields) {
            const QString key = to_qstring(field.key);
            QList<QWidget*> controls;
            for (QWidget* widget : panel.findChildren<QWidget*>())
                if (ui::fields_of(widget).contains(key)) controls << widget;
            QVERIFY2(!controls.isEmpty(), qPrintable(key));
            for (QWidget* widget : controls) {
                if (ui::fields_of(widget) != QStringList{key}) continue;  // the run length shows two fields
                if (qobject_cast<QLabel*>(widget) != nullptr) {
                    QVERIFY2(widget->toolTip().startsWith(to_qstring(field.help), Qt::CaseInsensitive),
                             qPrintable(key + ": " + widget->toolTip()));
                }
                if (auto* spin = qobject_cast<QSpinBox*>(widget); spin != nullptr && spin->specialValueText().isEmpty()) {
                    const auto [lo, hi] = integer_range(field);
                    QCOMPARE(static_cast<std::uint64_t>(spin->minimum()), lo);
                    QCOMPARE(static_cast<std::uint64_t>(spin->maximum()), hi);
                    ++ranges;
                }
                if (auto* spin = qobject_cast<QDoubleSpinBox*>(widget)) {
                    QCOMPARE(spin->minimum(), field.range->lo);
                    QCOMPARE(spin->maximum(), field.range->hi);
                    QVERIFY(!field.unit_symbol.empty());
                    QVERIFY(spin->suffix().endsWith(to_qstring(field.unit_symbol)));
                    ++ranges;
                }
                auto* combo = qobject_cast<QComboBox*>(widget);
                if (combo == nullptr) continue;
                for (const FieldChoice& choice : field.choices) {
                    const int index = combo->findData(to_qstring(choice.name));
                    QVERIFY2(index >= 0, qPrintable(key + ": " + to_qstring(choice.name)));
                    const QString tip = to_qstring(choice.help.empty() ? choice.brief : choice.help);
                    QCOMPARE(combo->itemData(index, Qt::ToolTipRole).toString().toLower(), tip.toLower());
                }
            }
        }
        QCOMPARE(ranges, 5);  // batch_size, num_workers, prefetch_factor, cpu_us_per_sample, gpu_us_per_batch
        QCOMPARE(ui::ControlPanel::kUntilStoppedSeconds, config_field(&LoaderConfig::seconds).range->hi);
    }

    void theDeviceMenuSaysHowFarToTrustEachProfile() {
        int profiles = 0;
        for (const std::string& name : builtin_profile_names()) {
            const QString trust = QString::fromStdString(trust_summary(load_profile(name)));
            for (const ui::DeviceOption& option : ui::device_choices())
                if (option.label.endsWith(QString::fromStdString(" " + name))) {
                    QVERIFY2(option.tooltip.contains(trust.toHtmlEscaped()), qPrintable(option.tooltip));
                    // Rich text, which Qt wraps: the trust runs to several hundred characters.
                    QVERIFY2(Qt::mightBeRichText(option.tooltip), qPrintable(option.tooltip));
                    ++profiles;
                }
        }
        QCOMPARE(profiles, static_cast<int>(builtin_profile_names().size()));
    }

    void noWorkersMeansNoPrefetchFactor() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QVERIFY(panel.prefetch_factor()->isEnabled());
        panel.num_workers()->setValue(0);
        QVERIFY(!panel.prefetch_factor()->isEnabled());
        QVERIFY(!panel.config().prefetch_factor);
        QVERIFY(panel.valid());
    }

    void theCopyStreamBoxSaysAndSetsWhereTheCopyIsQueued() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QComboBox* copy_stream = nullptr;
        for (QComboBox* combo : panel.findChildren<QComboBox*>())
            if (combo->findText(QStringLiteral("compute")) >= 0) copy_stream = combo;
        QVERIFY(copy_stream != nullptr);
        QCOMPARE(copy_stream->currentText(), QStringLiteral("side"));
        for (int i = 0; i < copy_stream->count(); ++i)
            QVERIFY(!copy_stream->itemData(i, Qt::ToolTipRole).toString().isEmpty());
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        copy_stream->setCurrentIndex(copy_stream->findText(QStringLiteral("compute")));
        QVERIFY(edited.wait(2000));
        QCOMPARE(edited.first().first().value<LoaderConfig>().copy_stream, CopyStream::Compute);
        LoaderConfig config = panel.config();
        config.copy_stream = CopyStream::Side;
        panel.set_config(config);
        QCOMPARE(copy_stream->currentText(), QStringLiteral("side"));
    }

    void anEditIsAnnouncedOnceAfterAPause() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config(true, 4));
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        for (int workers = 5; workers <= 9; ++workers) panel.num_workers()->setValue(workers);  // a slider drag
        QCOMPARE(edited.count(), 0);
        QVERIFY(edited.wait(2000));
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.first().first().value<LoaderConfig>().num_workers, 9u);
    }

    void anInvalidEditIsExplainedAndNotAnnounced() {
        ui::ControlPanel panel;
        LoaderConfig config = test::live_config(false, 4);
        config.pinned_budget_bytes = 16u << 20;  // less than 8 batches of 36.8 MiB
        panel.set_config(config);
        QVERIFY(panel.valid());
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        panel.pin_memory()->click();
        QVERIFY(!panel.valid());
        QVERIFY(panel.edit_pending());
        QVERIFY2(panel.issue_text().startsWith(QStringLiteral("Cannot apply pin_memory: off → on:")), qPrintable(panel.issue_text()));
        QVERIFY(panel.issue_text().contains(QStringLiteral("pinned_budget_bytes")));
        QVERIFY(ui::marked_widgets(&panel).contains(panel.pin_memory()));
        panel.flush();  // the pause ends
        QVERIFY(!panel.edit_pending());
        QCOMPARE(edited.count(), 0);
        QVERIFY(!panel.pin_memory()->isChecked());
        QCOMPARE(panel.config(), config);
    }

    // Prefetch 12 with 8 workers is refused: the message is at the top, in view wherever the panel
    // is scrolled to, the spin box is marked and shows the value in effect again, and an unrelated
    // change later applies that value, not 12.
    void aRefusedEditGoesBackToWhatIsInEffectAndIsNotAppliedLater() {
        const LoaderConfig running = eight_workers_prefetch_six();
        QVERIFY(find_config_issues(running).empty());
        ui::ControlPanel panel;
        accept_every_edit(panel);
        panel.set_config(running);
        panel.resize(340, 600);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        panel.prefetch_factor()->setFocus();

        type_into(panel.prefetch_factor(), QStringLiteral("12"));
        QCOMPARE(panel.prefetch_factor()->value(), 12);
        QVERIFY(panel.applies_after_pause());
        // The message came in above; the spin box typed into is still in view, below it.
        QTRY_VERIFY(in_view(panel, panel.prefetch_factor()));
        QVERIFY2(panel.issue_text().startsWith(QStringLiteral("Cannot apply prefetch_factor: 6 → 12:")), qPrintable(panel.issue_text()));
        panel.flush();  // the pause ends
        QCOMPARE(edited.count(), 0);
        QCOMPARE(panel.prefetch_factor()->value(), 6);
        QCOMPARE(panel.config(), running);
        QVERIFY2(panel.issue_text().startsWith(QStringLiteral("Not applied: prefetch_factor: 6 → 12")), qPrintable(panel.issue_text()));
        QVERIFY(panel.issue_text().contains(QStringLiteral("pinned_budget_bytes")));
        QVERIFY(ui::marked_widgets(&panel).contains(panel.prefetch_factor()));

        // In view at the top, above the scroll area, wherever the controls are scrolled to.
        QScrollBar* bar = panel.scroll_area()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        for (int position : {bar->minimum(), bar->maximum()}) {
            bar->setValue(position);
            QVERIFY(panel.issue_label()->isVisible());
            QVERIFY(!panel.issue_label()->visibleRegion().isEmpty());
            QVERIFY(panel.rect().contains(QRect(panel.issue_label()->mapTo(&panel, QPoint(0, 0)), panel.issue_label()->size())));
            QVERIFY(!panel.scroll_area()->isAncestorOf(panel.issue_label()));
        }

        panel.numa().membind()->setCurrentIndex(1);  // unrelated: GPU-local pages
        QVERIFY(panel.issue_text().isEmpty());  // a new edit: the refusal has been read
        panel.flush();
        QCOMPARE(edited.count(), 1);
        const auto applied = edited.first().first().value<LoaderConfig>();
        QCOMPARE(applied.prefetch_factor, std::optional<std::uint32_t>(6));
        QCOMPARE(applied.membind, MemoryPlacement::GpuLocal);
        QVERIFY(ui::marked_widgets(&panel).isEmpty());
    }

    // The message coming in above does not move the control typed into (when the panel can scroll).
    void theControlTypedIntoStaysPutWhenTheMessageComes() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config());
        panel.resize(340, 700);
        panel.show();
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        QSpinBox* batch = panel.batch_size();
        batch->setFocus();
        const auto where = [&] { return batch->mapTo(&panel, QPoint(0, 0)); };
        const QPoint before = where();
        type_into(batch, QStringLiteral("65536"));  // a 39 GB batch: not allowed
        QVERIFY(!panel.valid());
        QTRY_VERIFY(panel.issue_label()->height() > 50);
        QTRY_COMPARE(where(), before);
        QVERIFY(in_view(panel, batch));
        panel.flush();  // refused: back to 64, the message stays
        QCOMPARE(batch->value(), 64);
        QTRY_COMPARE(where(), before);
    }

    // A CPU list is applied when its field is left, not while it is half typed.
    void aTextFieldIsAppliedWhenLeftNotWhileTyped() {
        ui::ControlPanel panel;
        accept_every_edit(panel);
        panel.set_config(test::live_config());
        QSignalSpy edited(&panel, &ui::ControlPanel::configEdited);
        ui::NumaControls& numa = panel.numa();
        numa.bind_policy(ui::HostLane::Consumer)->setCurrentIndex(3);  // CPU list…
        QTest::keyClicks(numa.bind_cpus(ui::HostLane::Consumer), QStringLiteral("0-"));
        QVERIFY(panel.edit_pending());
        QVERIFY(!panel.applies_after_pause());  // no pause applies or refuses half a list
        QCOMPARE(edited.count(), 0);
        QTest::keyClicks(numa.bind_cpus(ui::HostLane::Consumer), QStringLiteral("0"));
        QTest::keyClick(numa.bind_cpus(ui::HostLane::Consumer), Qt::Key_Return);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(panel.applied().bind_consumer, (CpuBinding{CpuBindPolicy::CpuList, {0}}));
    }

    // Every spin box, combo box and slider, and one added later: over an unfocused one the wheel
    // changes nothing and scrolls the panel; with the focus it changes the value.
    void theWheelScrollsThePanelUnlessTheControlHasTheFocus() {
        ui::ControlPanel panel;
        panel.set_config(test::live_config());
        auto* late = new QComboBox(&panel.numa());  // a control added after the panel was built
        late->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
        panel.numa().layout()->addWidget(late);
        panel.resize(340, 500);
        panel.show();
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        QScrollArea* scroll = panel.scroll_area();
        QScrollBar* bar = scroll->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);

        int tried = 0;
        for (QWidget* control : panel.findChildren<QWidget*>()) {
            if (!ui::WheelGuard::takes_wheel(control) || !control->isVisible() || !control->isEnabled()) continue;
            QCOMPARE(control->focusPolicy(), Qt::StrongFocus);
            scroll->ensureWidgetVisible(control);
            const QString before = value_of(control);
            const int scrolled = bar->value();
            const int angle = scrolled > bar->minimum() ? 120 : -120;  // towards where the panel can go
            QWidget* taker = test::turn_wheel(control, control->rect().center(), angle);
            QVERIFY2(value_of(control) == before, qPrintable(control->metaObject()->className() + QStringLiteral(" changed")));
            QCOMPARE(taker, scroll->viewport());
            QVERIFY(bar->value() != scrolled);
            ++tried;
        }
        QVERIFY2(tried >= 15, qPrintable(QString::number(tried)));

        for (QWidget* focused : {static_cast<QWidget*>(late), static_cast<QWidget*>(panel.num_workers())}) {
            scroll->ensureWidgetVisible(focused);
            focused->setFocus();
            QVERIFY(focused->hasFocus());
            const QString before = value_of(focused);
            QCOMPARE(test::turn_wheel(focused, focused->rect().center(), -120), focused);
            QVERIFY(value_of(focused) != before);
        }
    }
};

PINSCOPE_UI_SUITE(ControlPanelTest)
#include "ControlPanelTest.moc"
