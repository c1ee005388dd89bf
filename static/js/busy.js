// The "busy" page (serving/busy.py): post the form again, with what was typed, once the wait is over.
const form = document.getElementById("try-again");
if (form) setTimeout(() => form.submit(), Number(form.dataset.retrySeconds || 3) * 1000);
