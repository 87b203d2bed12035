#pragma once
// Log-axis ticks at powers of 4 (or 16) bytes, labelled in binary units: "4 KiB", "1 MiB".
#include <qcustomplot.h>

namespace pinscope::ui {

class MemoryLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar format, int precision) override;
};

}  // namespace pinscope::ui
