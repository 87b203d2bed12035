// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/limits/AdvicePredictor.h"

#include <QMetaObject>

namespace pinscope::ui {

AdvicePredictor::AdvicePredictor(Predict predict, QObject* parent)
    : QObject(parent),
      predict_(predict ? std::move(predict) : Predict([](const RunSummary& s, const AdviceOptions& o) { return advise(s, o); })) {}

AdvicePredictor::~AdvicePredictor() {
    closing_ = true;
    if (thread_.joinable()) thread_.join();
}

std::uint64_t AdvicePredictor::request(RunSummary basis) {
    const std::uint64_t id = ++latest_;
    pending_ = Job{id, std::move(basis)};
    if (!thread_.joinable()) start_next();
    return id;
}

void AdvicePredictor::cancel() {
    ++latest_;
    pending_.reset();
}

void AdvicePredictor::start_next() {
    Job job = std::move(*pending_);
    pending_.reset();
    thread_ = std::thread([this, job = std::move(job)] {
        Prediction prediction;
        prediction.request = job.request;
        AdviceOptions options;
        options.cancelled = [this, id = job.request] { return closing_.load() || latest_.load() != id; };
        try {
            prediction.device = prediction_device(job.basis);
            prediction.advice = predict_(job.basis, options);
        } catch (const std::exception& e) {
            prediction.error = e.what();
        }
        // Back on the GUI thread; dropped with this object if it is gone by then.
        QMetaObject::invokeMethod(
            this, [this, p = std::move(prediction)]() mutable { finished(std::move(p)); }, Qt::QueuedConnection);
    });
}

void AdvicePredictor::finished(Prediction prediction) {
    thread_.join();
    if (prediction.request == latest_.load()) {
        result_ = std::move(prediction);
        emit predicted();
    }
    if (pending_) start_next();
    else emit idle();
}

}  // namespace pinscope::ui
